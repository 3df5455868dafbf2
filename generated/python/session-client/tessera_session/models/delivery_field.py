from enum import StrEnum

class DeliveryField(StrEnum):
    ATTEMPTS = "attempts"
    CREATED_AT = "created_at"
    REQUESTID = "requestId"
    STATUS = "status"
    UPDATED_AT = "updated_at"

    def __str__(self) -> str:
        return str(self.value)
