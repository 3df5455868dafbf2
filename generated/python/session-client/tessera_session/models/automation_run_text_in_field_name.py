from enum import StrEnum

class AutomationRunTextInFieldName(StrEnum):
    STATUS = "status"

    def __str__(self) -> str:
        return str(self.value)
