from enum import StrEnum

class StockInsDeleteSessionActionCommand(StrEnum):
    STOCK_INSDELETE = "stock-ins:delete"

    def __str__(self) -> str:
        return str(self.value)
