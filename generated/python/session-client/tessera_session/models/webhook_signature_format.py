from enum import StrEnum

class WebhookSignatureFormat(StrEnum):
    STANDARD_WEBHOOKS = "standard-webhooks"
    TESSERA = "tessera"

    def __str__(self) -> str:
        return str(self.value)
