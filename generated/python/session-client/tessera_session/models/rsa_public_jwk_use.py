from enum import StrEnum

class RsaPublicJwkUse(StrEnum):
    SIG = "sig"

    def __str__(self) -> str:
        return str(self.value)
