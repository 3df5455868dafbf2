from enum import StrEnum

class CommandRequestOperationType(StrEnum):
    DELETE = "DELETE"
    UPDATE = "UPDATE"

    def __str__(self) -> str:
        return str(self.value)
