from enum import StrEnum

class AssetsAssignCommandActionKind(StrEnum):
    COMMAND = "command"

    def __str__(self) -> str:
        return str(self.value)
