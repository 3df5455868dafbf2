from enum import StrEnum

class StockInsUpdateRequestOperationType(StrEnum):
    UPDATE = "UPDATE"

    def __str__(self) -> str:
        return str(self.value)
