from enum import StrEnum

class CredentialKeyKty(StrEnum):
    EC = "EC"
    OKP = "OKP"
    RSA = "RSA"

    def __str__(self) -> str:
        return str(self.value)
