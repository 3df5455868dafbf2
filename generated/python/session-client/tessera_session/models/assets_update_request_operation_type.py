from enum import StrEnum

class AssetsUpdateRequestOperationType(StrEnum):
    UPDATE = "UPDATE"

    def __str__(self) -> str:
        return str(self.value)
