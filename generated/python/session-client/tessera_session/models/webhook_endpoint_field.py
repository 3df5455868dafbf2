from enum import StrEnum

class WebhookEndpointField(StrEnum):
    CREATED_AT = "created_at"
    ENABLED = "enabled"
    URL = "url"

    def __str__(self) -> str:
        return str(self.value)
