from enum import StrEnum

class CredentialExpiryApproachingEventType(StrEnum):
    CREDENTIAL_EXPIRY_APPROACHING = "credential.expiry.approaching"

    def __str__(self) -> str:
        return str(self.value)
