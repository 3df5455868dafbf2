from enum import StrEnum

class AuditTextLikeOperator(StrEnum):
    LIKE = "like"

    def __str__(self) -> str:
        return str(self.value)
