from enum import StrEnum

class RegistryCreateActionKind(StrEnum):
    COMMAND = "command"

    def __str__(self) -> str:
        return str(self.value)
