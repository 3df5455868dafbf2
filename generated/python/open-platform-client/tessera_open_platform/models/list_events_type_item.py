from enum import StrEnum

class ListEventsTypeItem(StrEnum):
    ASSETS_ASSIGNMENT_CHANGED = "assets.assignment.changed"
    CREDENTIAL_EXPIRY_APPROACHING = "credential.expiry.approaching"
    CREDENTIAL_ROTATION_DUE = "credential.rotation.due"
    INVENTORY_STOCK_IN_CREATED = "inventory.stock-in.created"
    WEBHOOK_ENDPOINT_DISABLED = "webhook.endpoint.disabled"

    def __str__(self) -> str:
        return str(self.value)
