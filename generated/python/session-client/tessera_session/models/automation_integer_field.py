from enum import StrEnum

class AutomationIntegerField(StrEnum):
    ENABLED = "enabled"

    def __str__(self) -> str:
        return str(self.value)
