from enum import StrEnum

class DeliveryIntegerField(StrEnum):
    ATTEMPTS = "attempts"

    def __str__(self) -> str:
        return str(self.value)
