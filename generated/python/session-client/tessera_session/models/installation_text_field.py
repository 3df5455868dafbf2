from enum import StrEnum

class InstallationTextField(StrEnum):
    ENVIRONMENT = "environment"
    STATUS = "status"

    def __str__(self) -> str:
        return str(self.value)
