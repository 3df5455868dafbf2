from enum import StrEnum

class WebhookEndpointIntegerComparisonFieldName(StrEnum):
    ENABLED = "enabled"

    def __str__(self) -> str:
        return str(self.value)
