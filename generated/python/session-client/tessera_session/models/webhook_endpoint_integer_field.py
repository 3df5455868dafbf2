from enum import StrEnum

class WebhookEndpointIntegerField(StrEnum):
    ENABLED = "enabled"

    def __str__(self) -> str:
        return str(self.value)
