from enum import StrEnum

class StockInsUpdateSessionActionCommand(StrEnum):
    STOCK_INSUPDATE = "stock-ins:update"

    def __str__(self) -> str:
        return str(self.value)
