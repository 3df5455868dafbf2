from enum import StrEnum

class RsaPublicJwkAlg(StrEnum):
    RS256 = "RS256"

    def __str__(self) -> str:
        return str(self.value)
