from enum import StrEnum

class RetriedAutomationRunStatus(StrEnum):
    PENDING = "pending"

    def __str__(self) -> str:
        return str(self.value)
