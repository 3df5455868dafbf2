from enum import StrEnum

class AssetsDeleteRequestOperationType(StrEnum):
    DELETE = "DELETE"

    def __str__(self) -> str:
        return str(self.value)
