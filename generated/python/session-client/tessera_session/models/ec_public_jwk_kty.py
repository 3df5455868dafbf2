from enum import StrEnum

class EcPublicJwkKty(StrEnum):
    EC = "EC"

    def __str__(self) -> str:
        return str(self.value)
