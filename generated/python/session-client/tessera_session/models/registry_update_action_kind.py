from enum import StrEnum

class RegistryUpdateActionKind(StrEnum):
    COMMAND = "command"

    def __str__(self) -> str:
        return str(self.value)
