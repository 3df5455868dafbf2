from enum import StrEnum

class InventoryStockInCreatedEventType(StrEnum):
    INVENTORY_STOCK_IN_CREATED = "inventory.stock-in.created"

    def __str__(self) -> str:
        return str(self.value)
