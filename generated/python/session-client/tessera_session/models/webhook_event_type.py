from enum import StrEnum

class WebhookEventType(StrEnum):
    ASSETS_ASSIGNMENT_CHANGED = "assets.assignment.changed"
    INVENTORY_STOCK_IN_CREATED = "inventory.stock-in.created"

    def __str__(self) -> str:
        return str(self.value)
