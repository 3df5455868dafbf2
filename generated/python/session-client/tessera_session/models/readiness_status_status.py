from enum import StrEnum

class ReadinessStatusStatus(StrEnum):
    DOWN = "down"
    UP = "up"

    def __str__(self) -> str:
        return str(self.value)
