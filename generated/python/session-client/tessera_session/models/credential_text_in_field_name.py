from enum import StrEnum

class CredentialTextInFieldName(StrEnum):
    STATUS = "status"

    def __str__(self) -> str:
        return str(self.value)
