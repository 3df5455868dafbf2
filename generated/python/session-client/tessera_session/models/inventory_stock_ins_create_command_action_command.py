from enum import StrEnum

class InventoryStockInsCreateCommandActionCommand(StrEnum):
    INVENTORY_STOCK_INS_CREATE = "inventory.stock-ins.create"

    def __str__(self) -> str:
        return str(self.value)
