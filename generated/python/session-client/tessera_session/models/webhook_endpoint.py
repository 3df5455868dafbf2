from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

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
                in.created'], 'enabled': True, 'created_at': '2026-11-22T08:00:00.000Z', 'updated_at':
                '2026-11-22T08:00:00.000Z'}

        Attributes:
            endpoint_id (str):
            installation_id (str):
            url (str):
            event_types (list[str]): The subscribed event types, sorted.
            enabled (bool):
            created_at (datetime.datetime):
            updated_at (datetime.datetime):
     """

    endpoint_id: str
    installation_id: str
    url: str
    event_types: list[str]
    enabled: bool
    created_at: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        endpoint_id = self.endpoint_id

        installation_id = self.installation_id

        url = self.url

        event_types = self.event_types



        enabled = self.enabled

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "endpointId": endpoint_id,
            "installationId": installation_id,
            "url": url,
            "eventTypes": event_types,
            "enabled": enabled,
            "created_at": created_at,
            "updated_at": updated_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        endpoint_id = d.pop("endpointId")

        installation_id = d.pop("installationId")

        url = d.pop("url")

        event_types = cast(list[str], d.pop("eventTypes"))


        enabled = d.pop("enabled")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))




        webhook_endpoint = cls(
            endpoint_id=endpoint_id,
            installation_id=installation_id,
            url=url,
            event_types=event_types,
            enabled=enabled,
            created_at=created_at,
            updated_at=updated_at,
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
