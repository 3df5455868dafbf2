from enum import StrEnum

class AssetsDeleteSessionActionCommand(StrEnum):
    ASSETSDELETE = "assets:delete"

    def __str__(self) -> str:
        return str(self.value)
