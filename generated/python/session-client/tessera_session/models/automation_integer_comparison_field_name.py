from enum import StrEnum

class AutomationIntegerComparisonFieldName(StrEnum):
    ENABLED = "enabled"

    def __str__(self) -> str:
        return str(self.value)
