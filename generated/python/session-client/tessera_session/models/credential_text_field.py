from enum import StrEnum

class CredentialTextField(StrEnum):
    STATUS = "status"

    def __str__(self) -> str:
        return str(self.value)
