from enum import StrEnum

class AutomationRunField(StrEnum):
    ATTEMPTS = "attempts"
    CREATED_AT = "created_at"
    STATUS = "status"

    def __str__(self) -> str:
        return str(self.value)
