from enum import StrEnum

class DeliveryTextInFieldName(StrEnum):
    STATUS = "status"

    def __str__(self) -> str:
        return str(self.value)
