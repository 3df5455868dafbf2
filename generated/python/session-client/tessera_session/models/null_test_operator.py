from enum import StrEnum

class NullTestOperator(StrEnum):
    IS_NOT_NULL = "is_not_null"
    IS_NULL = "is_null"

    def __str__(self) -> str:
        return str(self.value)
