from enum import StrEnum

class AutomationRunIntegerComparisonFieldName(StrEnum):
    ATTEMPTS = "attempts"

    def __str__(self) -> str:
        return str(self.value)
