from enum import StrEnum

class InstallationField(StrEnum):
    CREATED_AT = "created_at"
    ENVIRONMENT = "environment"
    STATUS = "status"

    def __str__(self) -> str:
        return str(self.value)
