from enum import StrEnum

class ApplicationField(StrEnum):
    CREATED_AT = "created_at"
    NAME = "name"
    STATUS = "status"

    def __str__(self) -> str:
        return str(self.value)
