from enum import StrEnum

class InventoryStockInsCreateCommandActionKind(StrEnum):
    COMMAND = "command"

    def __str__(self) -> str:
        return str(self.value)
