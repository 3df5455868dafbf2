from enum import StrEnum

class FilterConditionOperator(StrEnum):
    EQ = "eq"
    GT = "gt"
    GTE = "gte"
    IN = "in"
    IS_NOT_NULL = "is_not_null"
    IS_NULL = "is_null"
    LIKE = "like"
    LT = "lt"
    LTE = "lte"
    NE = "ne"
    NOT_IN = "not_in"

    def __str__(self) -> str:
        return str(self.value)
