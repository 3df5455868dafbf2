from enum import StrEnum

class HealthUnavailableEnvelopeCode(StrEnum):
    SERVICE_UNAVAILABLE = "SERVICE_UNAVAILABLE"

    def __str__(self) -> str:
        return str(self.value)
