from enum import StrEnum

class AssetsNumberComparisonFieldName(StrEnum):
    VALUE = "value"

    def __str__(self) -> str:
        return str(self.value)
