from enum import StrEnum

class AssetsTextField(StrEnum):
    ASSIGNEE = "assignee"
    NAME = "name"
    SERIALNO = "serialNo"
    STATUS = "status"

    def __str__(self) -> str:
        return str(self.value)
