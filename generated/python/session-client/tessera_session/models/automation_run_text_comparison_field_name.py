from enum import StrEnum

class AutomationRunTextComparisonFieldName(StrEnum):
    STATUS = "status"

    def __str__(self) -> str:
        return str(self.value)
