from enum import StrEnum

class ScopeListItem(StrEnum):
    ASSETS_MANAGE = "assets.manage"
    ASSETS_READ = "assets.read"
    EVENTS_ROBOT_FLEET_PUBLISH = "events.robot-fleet.publish"
    INVENTORY_STOCKINS_MANAGE = "inventory.stockins.manage"
    INVENTORY_STOCKINS_READ = "inventory.stockins.read"

    def __str__(self) -> str:
        return str(self.value)
