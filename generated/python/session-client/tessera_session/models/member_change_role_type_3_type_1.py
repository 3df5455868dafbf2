from enum import StrEnum

class MemberChangeRoleType3Type1(StrEnum):
    MAINTAINER = "maintainer"
    OWNER = "owner"
    VIEWER = "viewer"

    def __str__(self) -> str:
        return str(self.value)
