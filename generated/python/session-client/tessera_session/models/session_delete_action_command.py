from enum import StrEnum

class SessionDeleteActionCommand(StrEnum):
    ASSETSDELETE = "assets:delete"
    STOCK_INSDELETE = "stock-ins:delete"

    def __str__(self) -> str:
        return str(self.value)
