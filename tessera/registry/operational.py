"""The platform's own operational events: published by the service itself, not by capabilities.yaml.

An operational event concerns an application's integration, not a tenant's records, so it needs
no scope and goes only to the endpoints of the application it concerns that subscribed to it (an
endpoint lists the type in its ``eventTypes`` like any other). Its schemas and its ``x-webhooks``
entry are written in openapi/open-platform.yaml, so integrators read them beside the others.
"""

from __future__ import annotations

ENDPOINT_DISABLED = "webhook.endpoint.disabled"

OPERATIONAL_EVENTS: dict[str, str] = {
    ENDPOINT_DISABLED: ("One of the application's webhook endpoints was disabled by the service: the "
                        "receiver answered 410 Gone, or every attempt failed for longer than allowed."),
}
