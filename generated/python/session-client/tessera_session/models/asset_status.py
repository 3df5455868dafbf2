from enum import StrEnum

class AssetStatus(StrEnum):
    ASSIGNED = "assigned"
    IN_STOCK = "in_stock"
    RETIRED = "retired"

    def __str__(self) -> str:
        return str(self.value)
