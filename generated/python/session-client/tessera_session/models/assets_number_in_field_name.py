from enum import StrEnum

class AssetsNumberInFieldName(StrEnum):
    VALUE = "value"

    def __str__(self) -> str:
        return str(self.value)
