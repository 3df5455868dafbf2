from enum import StrEnum

class StockInsDeleteSessionActionKind(StrEnum):
    SESSIONCOMMAND = "sessionCommand"

    def __str__(self) -> str:
        return str(self.value)
