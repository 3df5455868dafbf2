from enum import StrEnum

class AutomationTextLikeFieldName(StrEnum):
    NAME = "name"

    def __str__(self) -> str:
        return str(self.value)
