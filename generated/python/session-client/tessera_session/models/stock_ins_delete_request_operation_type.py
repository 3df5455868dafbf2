from enum import StrEnum

class StockInsDeleteRequestOperationType(StrEnum):
    DELETE = "DELETE"

    def __str__(self) -> str:
        return str(self.value)
