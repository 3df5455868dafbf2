from enum import StrEnum

class CommandResultCode(StrEnum):
    IDEMPOTENT_REPLAY = "IDEMPOTENT_REPLAY"
    VALUE_0 = "0"

    def __str__(self) -> str:
        return str(self.value)
