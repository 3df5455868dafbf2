from enum import StrEnum

class PublicJwkUse(StrEnum):
    SIG = "sig"

    def __str__(self) -> str:
        return str(self.value)
