from enum import StrEnum

class DeliveryIntegerComparisonFieldName(StrEnum):
    ATTEMPTS = "attempts"

    def __str__(self) -> str:
        return str(self.value)
