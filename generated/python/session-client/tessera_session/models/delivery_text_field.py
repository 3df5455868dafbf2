from enum import StrEnum

class DeliveryTextField(StrEnum):
    REQUESTID = "requestId"
    STATUS = "status"

    def __str__(self) -> str:
        return str(self.value)
