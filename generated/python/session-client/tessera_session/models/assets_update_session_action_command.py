from enum import StrEnum

class AssetsUpdateSessionActionCommand(StrEnum):
    ASSETSUPDATE = "assets:update"

    def __str__(self) -> str:
        return str(self.value)
