from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.webhook_event_type import WebhookEventType
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="UpdateWebhookEndpointRequest")



@_attrs_define
class UpdateWebhookEndpointRequest:
    """ Give `url`, `eventTypes` (replaces the subscribed types), `enabled`, or several.

        Example:
            {'eventTypes': ['inventory.stock-in.created'], 'enabled': False}

        Attributes:
            url (str | Unset): Where deliveries are POSTed: an `https` URL of at most 2000 characters whose host resolves
                to public addresses only, without credentials (else `VALIDATION_ERROR` on `url`). With
                `TESSERA_WEBHOOK_ALLOW_LOOPBACK=true`, `http` or `https` to a loopback-only host too.
                 Example: https://hooks.fleet.example/tessera.
            event_types (list[WebhookEventType] | Unset): The event types the endpoint receives; each must be a published
                webhook event type (else
                `VALIDATION_ERROR` naming the item, e.g. `eventTypes.0`). Duplicates are dropped; stored
                sorted.
                 Example: ['assets.assignment.changed', 'inventory.stock-in.created'].
            enabled (bool | Unset): `false` stops new deliveries to the endpoint.
     """

    url: str | Unset = UNSET
    event_types: list[WebhookEventType] | Unset = UNSET
    enabled: bool | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        url = self.url

        event_types: list[str] | Unset = UNSET
        if not isinstance(self.event_types, Unset):
            event_types = []
            for componentsschemas_webhook_event_type_list_item_data in self.event_types:
                componentsschemas_webhook_event_type_list_item = componentsschemas_webhook_event_type_list_item_data.value
                event_types.append(componentsschemas_webhook_event_type_list_item)



        enabled = self.enabled


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if url is not UNSET:
            field_dict["url"] = url
        if event_types is not UNSET:
            field_dict["eventTypes"] = event_types
        if enabled is not UNSET:
            field_dict["enabled"] = enabled

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

        update_webhook_endpoint_request = cls(
            url=url,
            event_types=event_types,
            enabled=enabled,
        )

        return update_webhook_endpoint_request

