from enum import StrEnum

class ApplicationTextComparisonFieldName(StrEnum):
    NAME = "name"
    STATUS = "status"

    def __str__(self) -> str:
        return str(self.value)
