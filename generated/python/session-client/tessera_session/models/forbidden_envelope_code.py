from enum import StrEnum

class ForbiddenEnvelopeCode(StrEnum):
    FORBIDDEN = "FORBIDDEN"
    TENANT_FORBIDDEN = "TENANT_FORBIDDEN"

    def __str__(self) -> str:
        return str(self.value)
