from enum import StrEnum

class CredentialKeyAlg(StrEnum):
    EDDSA = "EdDSA"
    ES256 = "ES256"
    RS256 = "RS256"

    def __str__(self) -> str:
        return str(self.value)
