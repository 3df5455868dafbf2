"""The platform's own operational events: published by the service itself, not by capabilities.yaml.

An operational event concerns an application's integration, not a tenant's records, so it needs
no scope and goes only to the endpoints of the application it concerns that subscribed to it (an
endpoint lists the type in its ``eventTypes`` like any other). Its schemas and its ``x-webhooks``
entry are written in openapi/open-platform.yaml, so integrators read them beside the others.
"""

from __future__ import annotations

ENDPOINT_DISABLED = "webhook.endpoint.disabled"
CREDENTIAL_ROTATION_DUE = "credential.rotation.due"
CREDENTIAL_EXPIRY_APPROACHING = "credential.expiry.approaching"

OPERATIONAL_EVENTS: dict[str, str] = {
    ENDPOINT_DISABLED: ("One of the application's webhook endpoints was disabled by the service: the "
                        "receiver answered 410 Gone, or every attempt failed for longer than allowed."),
    CREDENTIAL_ROTATION_DUE: ("One of the application's client credentials reached the rotation baseline "
                              "(90 days by default): rotate it."),
    CREDENTIAL_EXPIRY_APPROACHING: ("One of the application's client credentials is near the maximum age the "
                                    "service allows; past it, the credential obtains no more tokens."),
}
