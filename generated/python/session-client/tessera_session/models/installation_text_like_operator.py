from enum import StrEnum

class InstallationTextLikeOperator(StrEnum):
    LIKE = "like"

    def __str__(self) -> str:
        return str(self.value)
