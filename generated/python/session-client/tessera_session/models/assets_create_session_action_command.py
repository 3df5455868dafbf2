from enum import StrEnum

class AssetsCreateSessionActionCommand(StrEnum):
    ASSETSCREATE = "assets:create"

    def __str__(self) -> str:
        return str(self.value)
