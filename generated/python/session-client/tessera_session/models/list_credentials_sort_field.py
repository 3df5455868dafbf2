from enum import StrEnum

class ListCredentialsSortField(StrEnum):
    CREATED_AT = "created_at"
    STATUS = "status"

    def __str__(self) -> str:
        return str(self.value)
