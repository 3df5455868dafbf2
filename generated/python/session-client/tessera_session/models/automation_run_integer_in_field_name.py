from enum import StrEnum

class AutomationRunIntegerInFieldName(StrEnum):
    ATTEMPTS = "attempts"

    def __str__(self) -> str:
        return str(self.value)
