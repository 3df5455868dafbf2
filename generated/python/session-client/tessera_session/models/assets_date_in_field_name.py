from enum import StrEnum

class AssetsDateInFieldName(StrEnum):
    PURCHASEDAT = "purchasedAt"

    def __str__(self) -> str:
        return str(self.value)
