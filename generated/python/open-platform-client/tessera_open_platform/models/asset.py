from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.asset_status import AssetStatus
from typing import cast
import datetime






T = TypeVar("T", bound="Asset")



@_attrs_define
class Asset:
    """ A published `assets` record.

        Example:
            {'pid': 'rec_0c4m8n2p6r0t4v8x2z6b0d4f8h', 'name': 'ThinkPad X1 Carbon', 'serialNo': 'DEMO-SN-000117', 'status':
                'in_stock', 'assignee': None, 'value': 1899.5, 'purchasedAt': '2025-03-18', 'createdAt':
                '2026-11-20T09:15:00.000Z', 'updatedAt': '2026-11-20T09:15:00.000Z'}

        Attributes:
            pid (str): Stable public id. Example: rec_0c4m8n2p6r0t4v8x2z6b0d4f8h.
            name (str): Name
            serial_no (str): Serial number
            status (AssetStatus): Status
            assignee (None | str): Assignee
            value (float | None): Value
            purchased_at (datetime.date | None): Purchase date
            created_at (datetime.datetime): When the record was created.
            updated_at (datetime.datetime): When the record last changed.
     """

    pid: str
    name: str
    serial_no: str
    status: AssetStatus
    assignee: None | str
    value: float | None
    purchased_at: datetime.date | None
    created_at: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        pid = self.pid

        name = self.name

        serial_no = self.serial_no

        status = self.status.value

        assignee: None | str
        assignee = self.assignee

        value: float | None
        value = self.value

        purchased_at: None | str
        if isinstance(self.purchased_at, datetime.date):
            purchased_at = self.purchased_at.isoformat()
        else:
            purchased_at = self.purchased_at

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "pid": pid,
            "name": name,
            "serialNo": serial_no,
            "status": status,
            "assignee": assignee,
            "value": value,
            "purchasedAt": purchased_at,
            "createdAt": created_at,
            "updatedAt": updated_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        pid = d.pop("pid")

        name = d.pop("name")

        serial_no = d.pop("serialNo")

        status = AssetStatus(d.pop("status"))




        def _parse_assignee(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        assignee = _parse_assignee(d.pop("assignee"))


        def _parse_value(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        value = _parse_value(d.pop("value"))


        def _parse_purchased_at(data: object) -> datetime.date | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                purchased_at_type_0 = datetime.date.fromisoformat(data)



                return purchased_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | None, data)

        purchased_at = _parse_purchased_at(d.pop("purchasedAt"))


        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))




        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))




        asset = cls(
            pid=pid,
            name=name,
            serial_no=serial_no,
            status=status,
            assignee=assignee,
            value=value,
            purchased_at=purchased_at,
            created_at=created_at,
            updated_at=updated_at,
        )


        asset.additional_properties = d
        return asset

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
