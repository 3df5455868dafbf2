from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.assets_assignment_changed_event_schema_version import AssetsAssignmentChangedEventSchemaVersion
from ..models.assets_assignment_changed_event_type import AssetsAssignmentChangedEventType
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.assets_assignment_changed_payload import AssetsAssignmentChangedPayload





T = TypeVar("T", bound="AssetsAssignmentChangedEvent")



@_attrs_define
class AssetsAssignmentChangedEvent:
    """ Body of a `assets.assignment.changed` delivery. It never names the tenant.

        Example:
            {'id': 'evt_3f8k1m6p9r2t5v0x4z7b1d3f6h', 'type': 'assets.assignment.changed', 'schemaVersion': 1, 'occurredAt':
                '2026-11-22T08:00:00.000Z', 'data': {'pid': 'rec_0c4m8n2p6r0t4v8x2z6b0d4f8h', 'assignee': 'Dana Whitfield',
                'status': 'assigned', 'previousAssignee': None}}

        Attributes:
            id (str): Event id; retries and replays reuse it.
            type_ (AssetsAssignmentChangedEventType):
            schema_version (AssetsAssignmentChangedEventSchemaVersion):
            occurred_at (datetime.datetime): When the change happened.
            data (AssetsAssignmentChangedPayload): `data` of the `assets.assignment.changed` event. Example: {'pid':
                'rec_0c4m8n2p6r0t4v8x2z6b0d4f8h', 'assignee': 'Dana Whitfield', 'status': 'assigned', 'previousAssignee': None}.
     """

    id: str
    type_: AssetsAssignmentChangedEventType
    schema_version: AssetsAssignmentChangedEventSchemaVersion
    occurred_at: datetime.datetime
    data: AssetsAssignmentChangedPayload
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.assets_assignment_changed_payload import AssetsAssignmentChangedPayload # noqa: PLC0415
        id = self.id

        type_ = self.type_.value

        schema_version = self.schema_version.value

        occurred_at = self.occurred_at.isoformat()

        data = self.data.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "type": type_,
            "schemaVersion": schema_version,
            "occurredAt": occurred_at,
            "data": data,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.assets_assignment_changed_payload import AssetsAssignmentChangedPayload # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        type_ = AssetsAssignmentChangedEventType(d.pop("type"))




        schema_version = AssetsAssignmentChangedEventSchemaVersion(d.pop("schemaVersion"))




        occurred_at = datetime.datetime.fromisoformat(d.pop("occurredAt"))




        data = AssetsAssignmentChangedPayload.from_dict(d.pop("data"))




        assets_assignment_changed_event = cls(
            id=id,
            type_=type_,
            schema_version=schema_version,
            occurred_at=occurred_at,
            data=data,
        )


        assets_assignment_changed_event.additional_properties = d
        return assets_assignment_changed_event

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
