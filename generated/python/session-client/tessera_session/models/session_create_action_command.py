from enum import StrEnum

class SessionCreateActionCommand(StrEnum):
    ASSETSCREATE = "assets:create"
    STOCK_INSCREATE = "stock-ins:create"

    def __str__(self) -> str:
        return str(self.value)
