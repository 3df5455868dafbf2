from enum import StrEnum

class StockInsIntegerField(StrEnum):
    QUANTITY = "quantity"

    def __str__(self) -> str:
        return str(self.value)
