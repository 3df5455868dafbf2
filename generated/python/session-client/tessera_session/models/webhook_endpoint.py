from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.webhook_signature_format import WebhookSignatureFormat
from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="WebhookEndpoint")



@_attrs_define
class WebhookEndpoint:
    """ A webhook endpoint of an installation (its secret is never shown again).

        Example:
            {'endpointId': 'whe_5n2k8q4x0c6v1b7m3z9w5r1t8y', 'installationId': 'ins_tem0n4ppxp001k9644h7d5v225', 'url':
                'https://hooks.fleet.example/tessera', 'eventTypes': ['assets.assignment.changed', 'inventory.stock-
                in.created'], 'enabled': True, 'disabledReason': None, 'rateLimit': 50, 'maxInFlight': None, 'signatureFormat':
                'tessera', 'created_at': '2026-11-22T08:00:00.000Z', 'updated_at': '2026-11-22T08:00:00.000Z'}

        Attributes:
            endpoint_id (str):
            installation_id (str):
            url (str):
            event_types (list[str]): The subscribed event types, sorted.
            enabled (bool):
            signature_format (WebhookSignatureFormat): How deliveries to the endpoint are signed (every endpoint registered
                before the option
                existed signs as `tessera`):

                - `tessera` (the default): `X-Webhook-Timestamp` (Unix seconds), `X-Webhook-Delivery`
                  (the delivery id) and `X-Webhook-Signature: sha256=<lowercase hex HMAC-SHA256 of
                  "<timestamp>.<raw body>">`, keyed with the UTF-8 bytes of the whole secret; during a
                  rotation overlap one `sha256=` entry per active secret, comma-separated, newest first.
                  Its secrets are `twsec_` and 43 base64url characters (secrets issued before the
                  option existed start with `whsec_` and keep working).
                - `standard-webhooks`: the Standard Webhooks specification
                  (https://www.standardwebhooks.com), verified by its official libraries
                  (`standardwebhooks` on PyPI and npm, `Webhook(secret).verify(body, headers)`):
                  `webhook-id` (the delivery id, the same on retries and replays), `webhook-timestamp`
                  (Unix seconds) and `webhook-signature: v1,<base64 HMAC-SHA256 of
                  "<webhook-id>.<timestamp>.<raw body>">`; during a rotation overlap one `v1,` entry per
                  active secret, space-separated, newest first. Its secrets are `whsec_` and the standard
                  base64 of 32 random bytes, the HMAC key being the decoded bytes. A secret issued for
                  the `tessera` format (after a change of format, until the next rotation) is a raw key:
                  its UTF-8 bytes (`Webhook(secret.encode())` in Python,
                  `new Webhook(secret, {format: "raw"})` in Node).
                 Example: standard-webhooks.
            created_at (datetime.datetime):
            updated_at (datetime.datetime):
            disabled_reason (None | str | Unset): Why the service disabled the endpoint itself: `410 Gone` (the receiver
                said the endpoint is gone, as Standard Webhooks defines), or `failing since <time>` (every attempt failed for
                longer than the service allows, 5 days by default). Null otherwise; an owner re-enables the endpoint with
                `enabled: true`, which clears it.
            rate_limit (int | None | Unset): At most this many deliveries per second to the endpoint, across every worker (a
                receiver that cannot take bursts sets it); deliveries beyond it wait their turn, in order. Null: no limit.
                Example: 50.
            max_in_flight (int | None | Unset): At most this many deliveries to the endpoint awaiting the receiver's answer
                at once, across every worker. `1` sends one at a time. Null: no cap beyond the worker's own concurrency.
                Example: 4.
     """

    endpoint_id: str
    installation_id: str
    url: str
    event_types: list[str]
    enabled: bool
    signature_format: WebhookSignatureFormat
    created_at: datetime.datetime
    updated_at: datetime.datetime
    disabled_reason: None | str | Unset = UNSET
    rate_limit: int | None | Unset = UNSET
    max_in_flight: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        endpoint_id = self.endpoint_id

        installation_id = self.installation_id

        url = self.url

        event_types = self.event_types



        enabled = self.enabled

        signature_format = self.signature_format.value

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        disabled_reason: None | str | Unset
        if isinstance(self.disabled_reason, Unset):
            disabled_reason = UNSET
        else:
            disabled_reason = self.disabled_reason

        rate_limit: int | None | Unset
        if isinstance(self.rate_limit, Unset):
            rate_limit = UNSET
        else:
            rate_limit = self.rate_limit

        max_in_flight: int | None | Unset
        if isinstance(self.max_in_flight, Unset):
            max_in_flight = UNSET
        else:
            max_in_flight = self.max_in_flight


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "endpointId": endpoint_id,
            "installationId": installation_id,
            "url": url,
            "eventTypes": event_types,
            "enabled": enabled,
            "signatureFormat": signature_format,
            "created_at": created_at,
            "updated_at": updated_at,
        })
        if disabled_reason is not UNSET:
            field_dict["disabledReason"] = disabled_reason
        if rate_limit is not UNSET:
            field_dict["rateLimit"] = rate_limit
        if max_in_flight is not UNSET:
            field_dict["maxInFlight"] = max_in_flight

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        endpoint_id = d.pop("endpointId")

        installation_id = d.pop("installationId")

        url = d.pop("url")

        event_types = cast(list[str], d.pop("eventTypes"))


        enabled = d.pop("enabled")

        signature_format = WebhookSignatureFormat(d.pop("signatureFormat"))




        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))




        def _parse_disabled_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        disabled_reason = _parse_disabled_reason(d.pop("disabledReason", UNSET))


        def _parse_rate_limit(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        rate_limit = _parse_rate_limit(d.pop("rateLimit", UNSET))


        def _parse_max_in_flight(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_in_flight = _parse_max_in_flight(d.pop("maxInFlight", UNSET))


        webhook_endpoint = cls(
            endpoint_id=endpoint_id,
            installation_id=installation_id,
            url=url,
            event_types=event_types,
            enabled=enabled,
            signature_format=signature_format,
            created_at=created_at,
            updated_at=updated_at,
            disabled_reason=disabled_reason,
            rate_limit=rate_limit,
            max_in_flight=max_in_flight,
        )


        webhook_endpoint.additional_properties = d
        return webhook_endpoint

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
