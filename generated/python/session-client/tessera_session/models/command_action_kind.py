from enum import StrEnum

class CommandActionKind(StrEnum):
    COMMAND = "command"

    def __str__(self) -> str:
        return str(self.value)
