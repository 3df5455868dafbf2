from enum import StrEnum

class AutomationRunTextField(StrEnum):
    STATUS = "status"

    def __str__(self) -> str:
        return str(self.value)
