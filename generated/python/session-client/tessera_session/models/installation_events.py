from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.installation_event import InstallationEvent





T = TypeVar("T", bound="InstallationEvents")



@_attrs_define
class InstallationEvents:
    """ 
        Attributes:
            installation_id (str):
            records (list[InstallationEvent]):
            next_before (None | str): The event to pass as `before` for older events; null when there are none.
     """

    installation_id: str
    records: list[InstallationEvent]
    next_before: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.installation_event import InstallationEvent # noqa: PLC0415
        installation_id = self.installation_id

        records = []
        for records_item_data in self.records:
            records_item = records_item_data.to_dict()
            records.append(records_item)



        next_before: None | str
        next_before = self.next_before


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "installationId": installation_id,
            "records": records,
            "nextBefore": next_before,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.installation_event import InstallationEvent # noqa: PLC0415
        d = dict(src_dict)
        installation_id = d.pop("installationId")

        records = []
        _records = d.pop("records")
        for records_item_data in (_records):
            records_item = InstallationEvent.from_dict(records_item_data)



            records.append(records_item)


        def _parse_next_before(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_before = _parse_next_before(d.pop("nextBefore"))


        installation_events = cls(
            installation_id=installation_id,
            records=records,
            next_before=next_before,
        )


        installation_events.additional_properties = d
        return installation_events

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
