from enum import StrEnum

class CredentialField(StrEnum):
    CREATED_AT = "created_at"
    STATUS = "status"

    def __str__(self) -> str:
        return str(self.value)
