from enum import StrEnum

class RobotFleetTriggerEventType(StrEnum):
    INVENTORY_RECEIVED = "inventory.received"

    def __str__(self) -> str:
        return str(self.value)
