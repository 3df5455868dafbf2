from enum import StrEnum

class MemberTextField(StrEnum):
    EMAIL = "email"
    ROLE = "role"

    def __str__(self) -> str:
        return str(self.value)
