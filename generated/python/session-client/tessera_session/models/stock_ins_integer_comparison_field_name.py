from enum import StrEnum

class StockInsIntegerComparisonFieldName(StrEnum):
    QUANTITY = "quantity"

    def __str__(self) -> str:
        return str(self.value)
