from enum import StrEnum

class AutomationField(StrEnum):
    CREATED_AT = "created_at"
    ENABLED = "enabled"
    NAME = "name"

    def __str__(self) -> str:
        return str(self.value)
