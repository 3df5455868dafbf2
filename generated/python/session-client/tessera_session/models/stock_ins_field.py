from enum import StrEnum

class StockInsField(StrEnum):
    CREATED_AT = "created_at"
    QUANTITY = "quantity"
    RECEIVEDAT = "receivedAt"
    SKU = "sku"
    SOURCE = "source"
    UPDATED_AT = "updated_at"
    WAREHOUSE = "warehouse"

    def __str__(self) -> str:
        return str(self.value)
