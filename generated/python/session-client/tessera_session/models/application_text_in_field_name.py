from enum import StrEnum

class ApplicationTextInFieldName(StrEnum):
    NAME = "name"
    STATUS = "status"

    def __str__(self) -> str:
        return str(self.value)
