from enum import StrEnum

class AutomationTextInFieldName(StrEnum):
    NAME = "name"

    def __str__(self) -> str:
        return str(self.value)
