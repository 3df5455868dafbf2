from enum import StrEnum

class StockInsDatetimeField(StrEnum):
    CREATED_AT = "created_at"
    RECEIVEDAT = "receivedAt"
    UPDATED_AT = "updated_at"

    def __str__(self) -> str:
        return str(self.value)
