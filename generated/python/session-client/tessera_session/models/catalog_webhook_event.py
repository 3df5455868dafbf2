from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="CatalogWebhookEvent")



@_attrs_define
class CatalogWebhookEvent:
    """ A webhook event type an endpoint can subscribe to.

        Example:
            {'eventType': 'assets.assignment.changed', 'description': "An asset's assignee changed.", 'scope':
                'assets.read'}

        Attributes:
            event_type (str):
            description (str):
            scope (None | str): The scope the installation needs to subscribe to it (the read scope of its resource); null
                for the platform's operational events (`webhook.endpoint.disabled`, `credential.rotation.due`,
                `credential.expiry.approaching`), which any installation may subscribe to.
     """

    event_type: str
    description: str
    scope: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        event_type = self.event_type

        description = self.description

        scope: None | str
        scope = self.scope


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "eventType": event_type,
            "description": description,
            "scope": scope,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        event_type = d.pop("eventType")

        description = d.pop("description")

        def _parse_scope(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        scope = _parse_scope(d.pop("scope"))


        catalog_webhook_event = cls(
            event_type=event_type,
            description=description,
            scope=scope,
        )


        catalog_webhook_event.additional_properties = d
        return catalog_webhook_event

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
