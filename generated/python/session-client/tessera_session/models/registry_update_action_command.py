from enum import StrEnum

class RegistryUpdateActionCommand(StrEnum):
    ASSETS_ASSIGN = "assets.assign"

    def __str__(self) -> str:
        return str(self.value)
