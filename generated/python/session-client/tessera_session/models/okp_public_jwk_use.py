from enum import StrEnum

class OkpPublicJwkUse(StrEnum):
    SIG = "sig"

    def __str__(self) -> str:
        return str(self.value)
