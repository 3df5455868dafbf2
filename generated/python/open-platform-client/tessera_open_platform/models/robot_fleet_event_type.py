from enum import StrEnum

class RobotFleetEventType(StrEnum):
    INVENTORY_RECEIVED = "inventory.received"

    def __str__(self) -> str:
        return str(self.value)
