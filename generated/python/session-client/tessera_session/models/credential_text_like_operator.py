from enum import StrEnum

class CredentialTextLikeOperator(StrEnum):
    LIKE = "like"

    def __str__(self) -> str:
        return str(self.value)
