from enum import StrEnum

class AutomationRunStatus(StrEnum):
    PARKED = "parked"
    PENDING = "pending"
    RETRYING = "retrying"
    SUCCEEDED = "succeeded"

    def __str__(self) -> str:
        return str(self.value)
