from enum import StrEnum

class InstallationTextInFieldName(StrEnum):
    ENVIRONMENT = "environment"
    STATUS = "status"

    def __str__(self) -> str:
        return str(self.value)
