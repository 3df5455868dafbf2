from enum import StrEnum

class AssetsDateField(StrEnum):
    PURCHASEDAT = "purchasedAt"

    def __str__(self) -> str:
        return str(self.value)
