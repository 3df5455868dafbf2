from enum import StrEnum

class WebhookEndpointTextLikeFieldName(StrEnum):
    URL = "url"

    def __str__(self) -> str:
        return str(self.value)
