from enum import StrEnum

class WebhookEventType(StrEnum):
    ASSETS_ASSIGNMENT_CHANGED = "assets.assignment.changed"
    INVENTORY_STOCK_IN_CREATED = "inventory.stock-in.created"
    WEBHOOK_ENDPOINT_DISABLED = "webhook.endpoint.disabled"

    def __str__(self) -> str:
        return str(self.value)
