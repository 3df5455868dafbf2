from enum import StrEnum

class CredentialTextComparisonFieldName(StrEnum):
    STATUS = "status"

    def __str__(self) -> str:
        return str(self.value)
