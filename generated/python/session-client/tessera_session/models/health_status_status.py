from enum import StrEnum

class HealthStatusStatus(StrEnum):
    UP = "up"

    def __str__(self) -> str:
        return str(self.value)
