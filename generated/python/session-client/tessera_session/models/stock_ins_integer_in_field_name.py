from enum import StrEnum

class StockInsIntegerInFieldName(StrEnum):
    QUANTITY = "quantity"

    def __str__(self) -> str:
        return str(self.value)
