from enum import StrEnum

class MemberTextInFieldName(StrEnum):
    EMAIL = "email"
    ROLE = "role"

    def __str__(self) -> str:
        return str(self.value)
