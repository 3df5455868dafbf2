from enum import StrEnum

class StockInsCreateSessionActionCommand(StrEnum):
    STOCK_INSCREATE = "stock-ins:create"

    def __str__(self) -> str:
        return str(self.value)
