from enum import StrEnum

class DeliveryTextLikeFieldName(StrEnum):
    STATUS = "status"

    def __str__(self) -> str:
        return str(self.value)
