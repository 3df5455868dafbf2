from enum import StrEnum

class AssetsField(StrEnum):
    ASSIGNEE = "assignee"
    CREATED_AT = "created_at"
    NAME = "name"
    PURCHASEDAT = "purchasedAt"
    SERIALNO = "serialNo"
    STATUS = "status"
    UPDATED_AT = "updated_at"
    VALUE = "value"

    def __str__(self) -> str:
        return str(self.value)
