from enum import StrEnum

class AssetsAssignResultCommandCode(StrEnum):
    ASSETS_ASSIGN = "assets.assign"

    def __str__(self) -> str:
        return str(self.value)
