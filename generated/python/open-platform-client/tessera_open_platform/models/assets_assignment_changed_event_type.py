from enum import StrEnum

class AssetsAssignmentChangedEventType(StrEnum):
    ASSETS_ASSIGNMENT_CHANGED = "assets.assignment.changed"

    def __str__(self) -> str:
        return str(self.value)
