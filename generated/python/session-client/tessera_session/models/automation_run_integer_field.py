from enum import StrEnum

class AutomationRunIntegerField(StrEnum):
    ATTEMPTS = "attempts"

    def __str__(self) -> str:
        return str(self.value)
