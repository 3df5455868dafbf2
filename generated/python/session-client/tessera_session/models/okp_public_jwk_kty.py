from enum import StrEnum

class OkpPublicJwkKty(StrEnum):
    OKP = "OKP"

    def __str__(self) -> str:
        return str(self.value)
