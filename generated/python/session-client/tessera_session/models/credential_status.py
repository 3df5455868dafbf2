from enum import StrEnum

class CredentialStatus(StrEnum):
    ACTIVE = "active"
    EXPIRED = "expired"
    REVOKED = "revoked"
    ROTATED = "rotated"

    def __str__(self) -> str:
        return str(self.value)
