from enum import StrEnum

class StockInsCreateSessionActionKind(StrEnum):
    SESSIONCOMMAND = "sessionCommand"

    def __str__(self) -> str:
        return str(self.value)
