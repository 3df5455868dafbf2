from enum import StrEnum

class DatasourceTextField(StrEnum):
    LABEL = "label"
    VALUE = "value"

    def __str__(self) -> str:
        return str(self.value)
