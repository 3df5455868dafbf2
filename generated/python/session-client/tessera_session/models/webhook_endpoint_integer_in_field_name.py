from enum import StrEnum

class WebhookEndpointIntegerInFieldName(StrEnum):
    ENABLED = "enabled"

    def __str__(self) -> str:
        return str(self.value)
