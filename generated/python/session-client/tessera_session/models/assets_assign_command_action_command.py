from enum import StrEnum

class AssetsAssignCommandActionCommand(StrEnum):
    ASSETS_ASSIGN = "assets.assign"

    def __str__(self) -> str:
        return str(self.value)
