from enum import StrEnum

class ReadinessUnavailableEnvelopeCode(StrEnum):
    SERVICE_UNAVAILABLE = "SERVICE_UNAVAILABLE"

    def __str__(self) -> str:
        return str(self.value)
