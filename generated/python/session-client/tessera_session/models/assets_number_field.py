from enum import StrEnum

class AssetsNumberField(StrEnum):
    VALUE = "value"

    def __str__(self) -> str:
        return str(self.value)
