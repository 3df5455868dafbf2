from enum import StrEnum

class DeliveryAttemptOutcome(StrEnum):
    FAILED = "failed"
    SENDING = "sending"
    SUCCEEDED = "succeeded"
    UNKNOWN = "unknown"

    def __str__(self) -> str:
        return str(self.value)
