from enum import StrEnum

class AutomationTextField(StrEnum):
    NAME = "name"

    def __str__(self) -> str:
        return str(self.value)
