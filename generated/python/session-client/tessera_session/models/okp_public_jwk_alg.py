from enum import StrEnum

class OkpPublicJwkAlg(StrEnum):
    EDDSA = "EdDSA"

    def __str__(self) -> str:
        return str(self.value)
