from enum import StrEnum

class AutomationTextComparisonFieldName(StrEnum):
    NAME = "name"

    def __str__(self) -> str:
        return str(self.value)
