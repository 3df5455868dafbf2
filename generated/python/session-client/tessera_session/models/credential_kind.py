from enum import StrEnum

class CredentialKind(StrEnum):
    PRIVATE_KEY_JWT = "private_key_jwt"
    SECRET = "secret"

    def __str__(self) -> str:
        return str(self.value)
