from enum import StrEnum

class AutomationTextLikeOperator(StrEnum):
    LIKE = "like"

    def __str__(self) -> str:
        return str(self.value)
