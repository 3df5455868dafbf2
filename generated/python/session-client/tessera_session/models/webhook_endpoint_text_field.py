from enum import StrEnum

class WebhookEndpointTextField(StrEnum):
    URL = "url"

    def __str__(self) -> str:
        return str(self.value)
