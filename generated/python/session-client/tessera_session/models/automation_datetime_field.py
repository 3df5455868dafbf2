from enum import StrEnum

class AutomationDatetimeField(StrEnum):
    CREATED_AT = "created_at"

    def __str__(self) -> str:
        return str(self.value)
