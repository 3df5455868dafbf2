from enum import StrEnum

class EcPublicJwkAlg(StrEnum):
    ES256 = "ES256"

    def __str__(self) -> str:
        return str(self.value)
