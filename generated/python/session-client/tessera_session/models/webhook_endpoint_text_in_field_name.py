from enum import StrEnum

class WebhookEndpointTextInFieldName(StrEnum):
    URL = "url"

    def __str__(self) -> str:
        return str(self.value)
