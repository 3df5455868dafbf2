from enum import StrEnum

class AssetsDateComparisonFieldName(StrEnum):
    PURCHASEDAT = "purchasedAt"

    def __str__(self) -> str:
        return str(self.value)
