from enum import StrEnum

class ApplicationTextField(StrEnum):
    NAME = "name"
    STATUS = "status"

    def __str__(self) -> str:
        return str(self.value)
