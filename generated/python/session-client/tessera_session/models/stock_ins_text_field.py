from enum import StrEnum

class StockInsTextField(StrEnum):
    SKU = "sku"
    SOURCE = "source"
    WAREHOUSE = "warehouse"

    def __str__(self) -> str:
        return str(self.value)
