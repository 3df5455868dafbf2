from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="EventAccepted")



@_attrs_define
class EventAccepted:
    """ An inbound event was accepted.

        Example:
            {'eventId': 'evt_0c4m8n2p6r0t4v8x2z6b0d4f8h', 'duplicate': False}

        Attributes:
            event_id (str): Id of the stored event (the original one for a duplicate). Example:
                evt_0c4m8n2p6r0t4v8x2z6b0d4f8h.
            duplicate (bool): True when the Idempotency-Key was already used with the same body.
     """

    event_id: str
    duplicate: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        event_id = self.event_id

        duplicate = self.duplicate


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "eventId": event_id,
            "duplicate": duplicate,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        event_id = d.pop("eventId")

        duplicate = d.pop("duplicate")

        event_accepted = cls(
            event_id=event_id,
            duplicate=duplicate,
        )


        event_accepted.additional_properties = d
        return event_accepted

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
