from enum import StrEnum

class RevokedCredentialStatus(StrEnum):
    REVOKED = "revoked"

    def __str__(self) -> str:
        return str(self.value)
