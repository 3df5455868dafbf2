from enum import StrEnum

class EcPublicJwkCrv(StrEnum):
    P_256 = "P-256"

    def __str__(self) -> str:
        return str(self.value)
