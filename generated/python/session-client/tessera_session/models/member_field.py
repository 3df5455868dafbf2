from enum import StrEnum

class MemberField(StrEnum):
    CREATED_AT = "created_at"
    EMAIL = "email"
    ROLE = "role"

    def __str__(self) -> str:
        return str(self.value)
