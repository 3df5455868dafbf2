from enum import StrEnum

class SessionUpdateActionCommand(StrEnum):
    ASSETSUPDATE = "assets:update"
    STOCK_INSUPDATE = "stock-ins:update"

    def __str__(self) -> str:
        return str(self.value)
