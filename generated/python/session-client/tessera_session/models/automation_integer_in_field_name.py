from enum import StrEnum

class AutomationIntegerInFieldName(StrEnum):
    ENABLED = "enabled"

    def __str__(self) -> str:
        return str(self.value)
