from enum import StrEnum

class SetOperator(StrEnum):
    IN = "in"
    NOT_IN = "not_in"

    def __str__(self) -> str:
        return str(self.value)
