from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.webhook_event_type import WebhookEventType
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="CreateWebhookEndpointRequest")



@_attrs_define
class CreateWebhookEndpointRequest:
    """ 
        Example:
            {'url': 'https://hooks.fleet.example/tessera', 'eventTypes': ['inventory.stock-in.created'], 'enabled': True}

        Attributes:
            url (str): Where deliveries are POSTed: an `https` URL of at most 2000 characters whose host resolves
                to public addresses only, without credentials (else `VALIDATION_ERROR` on `url`). With
                `TESSERA_WEBHOOK_ALLOW_LOOPBACK=true`, `http` or `https` to a loopback-only host too.
                 Example: https://hooks.fleet.example/tessera.
            event_types (list[WebhookEventType]): The event types the endpoint receives; each must be a published webhook
                event type (else
                `VALIDATION_ERROR` naming the item, e.g. `eventTypes.0`). Duplicates are dropped; stored
                sorted.
                 Example: ['assets.assignment.changed', 'inventory.stock-in.created'].
            enabled (bool | Unset): `false` registers the endpoint disabled (no deliveries until enabled). Default: True.
     """

    url: str
    event_types: list[WebhookEventType]
    enabled: bool | Unset = True





    def to_dict(self) -> dict[str, Any]:
        url = self.url

        event_types = []
        for componentsschemas_webhook_event_type_list_item_data in self.event_types:
            componentsschemas_webhook_event_type_list_item = componentsschemas_webhook_event_type_list_item_data.value
            event_types.append(componentsschemas_webhook_event_type_list_item)



        enabled = self.enabled


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "url": url,
            "eventTypes": event_types,
        })
        if enabled is not UNSET:
            field_dict["enabled"] = enabled

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url")

        event_types = []
        _event_types = d.pop("eventTypes")
        for componentsschemas_webhook_event_type_list_item_data in (_event_types):
            componentsschemas_webhook_event_type_list_item = WebhookEventType(componentsschemas_webhook_event_type_list_item_data)



            event_types.append(componentsschemas_webhook_event_type_list_item)


        enabled = d.pop("enabled", UNSET)

        create_webhook_endpoint_request = cls(
            url=url,
            event_types=event_types,
            enabled=enabled,
        )

        return create_webhook_endpoint_request

