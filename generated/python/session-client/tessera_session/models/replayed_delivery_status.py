from enum import StrEnum

class ReplayedDeliveryStatus(StrEnum):
    PENDING = "pending"

    def __str__(self) -> str:
        return str(self.value)
