from enum import StrEnum

class PublicJwkKty(StrEnum):
    EC = "EC"
    OKP = "OKP"
    RSA = "RSA"

    def __str__(self) -> str:
        return str(self.value)
