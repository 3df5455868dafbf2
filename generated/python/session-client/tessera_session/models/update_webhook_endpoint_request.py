from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.webhook_event_type import WebhookEventType
from ..models.webhook_signature_format import WebhookSignatureFormat
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="UpdateWebhookEndpointRequest")



@_attrs_define
class UpdateWebhookEndpointRequest:
    """ Give `url`, `eventTypes` (replaces the subscribed types), `enabled`, `rateLimit`, `maxInFlight`, `signatureFormat`,
    or several (null lifts a limit).

        Example:
            {'eventTypes': ['assets.assignment.changed'], 'enabled': False}

        Attributes:
            url (str | Unset): Where deliveries are POSTed: an `https` URL of at most 2000 characters whose host resolves
                to public addresses only, without credentials (else `VALIDATION_ERROR` on `url`). With
                `TESSERA_WEBHOOK_ALLOW_LOOPBACK=true`, `http` or `https` to a loopback-only host too.
                The pattern states its shape (printable ASCII, no spaces, a scheme and a host); where its
                host resolves, and to what, no schema can state.
                 Example: https://hooks.fleet.example/tessera.
            event_types (list[WebhookEventType] | Unset): The event types the endpoint receives; each must be a published
                webhook event type (else
                `VALIDATION_ERROR` naming the item, e.g. `eventTypes.0`). Duplicates are dropped; stored
                sorted.
                 Example: ['assets.assignment.changed', 'inventory.stock-in.created'].
            enabled (bool | Unset): `false` stops new deliveries to the endpoint.
            rate_limit (int | None | Unset): At most this many deliveries per second to the endpoint, across every worker (a
                receiver that cannot take bursts sets it); deliveries beyond it wait their turn, in order. Null: no limit.
                Example: 50.
            max_in_flight (int | None | Unset): At most this many deliveries to the endpoint awaiting the receiver's answer
                at once, across every worker. `1` sends one at a time. Null: no cap beyond the worker's own concurrency.
                Example: 4.
            signature_format (WebhookSignatureFormat | Unset): How deliveries to the endpoint are signed (every endpoint
                registered before the option
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
     """

    url: str | Unset = UNSET
    event_types: list[WebhookEventType] | Unset = UNSET
    enabled: bool | Unset = UNSET
    rate_limit: int | None | Unset = UNSET
    max_in_flight: int | None | Unset = UNSET
    signature_format: WebhookSignatureFormat | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        url = self.url

        event_types: list[str] | Unset = UNSET
        if not isinstance(self.event_types, Unset):
            event_types = []
            for componentsschemas_webhook_event_type_list_item_data in self.event_types:
                componentsschemas_webhook_event_type_list_item = componentsschemas_webhook_event_type_list_item_data.value
                event_types.append(componentsschemas_webhook_event_type_list_item)



        enabled = self.enabled

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

        signature_format: str | Unset = UNSET
        if not isinstance(self.signature_format, Unset):
            signature_format = self.signature_format.value



        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if url is not UNSET:
            field_dict["url"] = url
        if event_types is not UNSET:
            field_dict["eventTypes"] = event_types
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if rate_limit is not UNSET:
            field_dict["rateLimit"] = rate_limit
        if max_in_flight is not UNSET:
            field_dict["maxInFlight"] = max_in_flight
        if signature_format is not UNSET:
            field_dict["signatureFormat"] = signature_format

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url", UNSET)

        _event_types = d.pop("eventTypes", UNSET)
        event_types: list[WebhookEventType] | Unset = UNSET
        if _event_types is not UNSET:
            event_types = []
            for componentsschemas_webhook_event_type_list_item_data in _event_types:
                componentsschemas_webhook_event_type_list_item = WebhookEventType(componentsschemas_webhook_event_type_list_item_data)



                event_types.append(componentsschemas_webhook_event_type_list_item)


        enabled = d.pop("enabled", UNSET)

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


        _signature_format = d.pop("signatureFormat", UNSET)
        signature_format: WebhookSignatureFormat | Unset
        if isinstance(_signature_format,  Unset):
            signature_format = UNSET
        else:
            signature_format = WebhookSignatureFormat(_signature_format)




        update_webhook_endpoint_request = cls(
            url=url,
            event_types=event_types,
            enabled=enabled,
            rate_limit=rate_limit,
            max_in_flight=max_in_flight,
            signature_format=signature_format,
        )

        return update_webhook_endpoint_request

