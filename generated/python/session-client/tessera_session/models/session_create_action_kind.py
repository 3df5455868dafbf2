from enum import StrEnum

class SessionCreateActionKind(StrEnum):
    SESSIONCOMMAND = "sessionCommand"

    def __str__(self) -> str:
        return str(self.value)
