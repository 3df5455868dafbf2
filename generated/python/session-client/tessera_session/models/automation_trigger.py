from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="AutomationTrigger")



@_attrs_define
class AutomationTrigger:
    """ The inbound events that start a run: `source` a published event source (`robot-fleet`)
    and `eventType` one of its types (`inventory.received`); else `VALIDATION_ERROR` on
    `trigger.source` or `trigger.eventType`.

        Example:
            {'source': 'robot-fleet', 'eventType': 'inventory.received'}

        Attributes:
            source (str):
            event_type (str):
     """

    source: str
    event_type: str





    def to_dict(self) -> dict[str, Any]:
        source = self.source

        event_type = self.event_type


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "source": source,
            "eventType": event_type,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        source = d.pop("source")

        event_type = d.pop("eventType")

        automation_trigger = cls(
            source=source,
            event_type=event_type,
        )

        return automation_trigger

