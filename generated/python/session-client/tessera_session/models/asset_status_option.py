from enum import StrEnum

class AssetStatusOption(StrEnum):
    ASSIGNED = "assigned"
    IN_STOCK = "in_stock"
    RETIRED = "retired"

    def __str__(self) -> str:
        return str(self.value)
