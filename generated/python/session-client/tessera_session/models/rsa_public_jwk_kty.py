from enum import StrEnum

class RsaPublicJwkKty(StrEnum):
    RSA = "RSA"

    def __str__(self) -> str:
        return str(self.value)
