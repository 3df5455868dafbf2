from enum import StrEnum

class SessionUpdateActionKind(StrEnum):
    SESSIONCOMMAND = "sessionCommand"

    def __str__(self) -> str:
        return str(self.value)
