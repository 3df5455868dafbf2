from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.installation_event_data import InstallationEventData





T = TypeVar("T", bound="InstallationEvent")



@_attrs_define
class InstallationEvent:
    """ An event as the installation's webhooks carry it and its events API serves it; `data` is
    described per `type` under the Open Platform document's `x-webhooks`.

        Attributes:
            id (str): Event id; the id of the event's webhook deliveries too.
            type_ (str):
            schema_version (int):
            occurred_at (datetime.datetime):
            data (InstallationEventData):
     """

    id: str
    type_: str
    schema_version: int
    occurred_at: datetime.datetime
    data: InstallationEventData
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.installation_event_data import InstallationEventData # noqa: PLC0415
        id = self.id

        type_ = self.type_

        schema_version = self.schema_version

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
        from ..models.installation_event_data import InstallationEventData # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        type_ = d.pop("type")

        schema_version = d.pop("schemaVersion")

        occurred_at = datetime.datetime.fromisoformat(d.pop("occurredAt"))




        data = InstallationEventData.from_dict(d.pop("data"))




        installation_event = cls(
            id=id,
            type_=type_,
            schema_version=schema_version,
            occurred_at=occurred_at,
            data=data,
        )


        installation_event.additional_properties = d
        return installation_event

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
