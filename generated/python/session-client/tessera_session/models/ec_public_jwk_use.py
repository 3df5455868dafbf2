from enum import StrEnum

class EcPublicJwkUse(StrEnum):
    SIG = "sig"

    def __str__(self) -> str:
        return str(self.value)
