from enum import StrEnum

class DeliveryTextLikeOperator(StrEnum):
    LIKE = "like"

    def __str__(self) -> str:
        return str(self.value)
