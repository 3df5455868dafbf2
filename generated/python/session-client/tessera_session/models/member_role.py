from enum import StrEnum

class MemberRole(StrEnum):
    MAINTAINER = "maintainer"
    OWNER = "owner"
    VIEWER = "viewer"

    def __str__(self) -> str:
        return str(self.value)
