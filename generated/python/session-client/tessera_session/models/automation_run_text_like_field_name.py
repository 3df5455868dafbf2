from enum import StrEnum

class AutomationRunTextLikeFieldName(StrEnum):
    STATUS = "status"

    def __str__(self) -> str:
        return str(self.value)
