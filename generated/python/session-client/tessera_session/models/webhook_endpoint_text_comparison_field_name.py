from enum import StrEnum

class WebhookEndpointTextComparisonFieldName(StrEnum):
    URL = "url"

    def __str__(self) -> str:
        return str(self.value)
