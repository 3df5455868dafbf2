from enum import StrEnum

class DeliveryIntegerInFieldName(StrEnum):
    ATTEMPTS = "attempts"

    def __str__(self) -> str:
        return str(self.value)
