from enum import StrEnum

class WebhookEndpointDisabledEventType(StrEnum):
    WEBHOOK_ENDPOINT_DISABLED = "webhook.endpoint.disabled"

    def __str__(self) -> str:
        return str(self.value)
