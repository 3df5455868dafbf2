from enum import StrEnum

class RobotFleetTriggerSource(StrEnum):
    ROBOT_FLEET = "robot-fleet"

    def __str__(self) -> str:
        return str(self.value)
