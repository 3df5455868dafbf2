from enum import StrEnum

class SessionDeleteActionKind(StrEnum):
    SESSIONCOMMAND = "sessionCommand"

    def __str__(self) -> str:
        return str(self.value)
