from enum import StrEnum

class AssetsTextLikeFieldName(StrEnum):
    ASSIGNEE = "assignee"
    NAME = "name"
    SERIALNO = "serialNo"
    STATUS = "status"

    def __str__(self) -> str:
        return str(self.value)
