from enum import StrEnum

class CredentialRotationDueEventType(StrEnum):
    CREDENTIAL_ROTATION_DUE = "credential.rotation.due"

    def __str__(self) -> str:
        return str(self.value)
