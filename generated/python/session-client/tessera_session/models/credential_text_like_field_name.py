from enum import StrEnum

class CredentialTextLikeFieldName(StrEnum):
    STATUS = "status"

    def __str__(self) -> str:
        return str(self.value)
