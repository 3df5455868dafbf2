from enum import StrEnum

class DatasourceField(StrEnum):
    LABEL = "label"
    VALUE = "value"

    def __str__(self) -> str:
        return str(self.value)
