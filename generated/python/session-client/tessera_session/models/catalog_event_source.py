from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="CatalogEventSource")



@_attrs_define
class CatalogEventSource:
    """ An inbound event source, whose event types can trigger automations.

        Example:
            {'source': 'robot-fleet', 'description': 'Events from warehouse robot fleets.', 'scope': 'events.robot-
                fleet.publish', 'eventTypes': ['inventory.received']}

        Attributes:
            source (str):
            description (str):
            scope (str): The scope a token needs to post its events.
            event_types (list[str]): Its event types, sorted.
     """

    source: str
    description: str
    scope: str
    event_types: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        source = self.source

        description = self.description

        scope = self.scope

        event_types = self.event_types




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "source": source,
            "description": description,
            "scope": scope,
            "eventTypes": event_types,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        source = d.pop("source")

        description = d.pop("description")

        scope = d.pop("scope")

        event_types = cast(list[str], d.pop("eventTypes"))


        catalog_event_source = cls(
            source=source,
            description=description,
            scope=scope,
            event_types=event_types,
        )


        catalog_event_source.additional_properties = d
        return catalog_event_source

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
