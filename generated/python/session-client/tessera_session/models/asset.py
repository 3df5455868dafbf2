from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.asset_status import AssetStatus
from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="Asset")



@_attrs_define
class Asset:
    """ A `asset` record (Asset).

        Attributes:
            id (str): Public id (random, never a database id). Example: rec_0c4m8n2p6r0t4v8x2z6b0d4f8h.
            name (str): Name
            serial_no (str): Serial number
            created_at (datetime.datetime): When the record was created.
            updated_at (datetime.datetime): When the record last changed.
            status (AssetStatus | Unset): Status
            assignee (None | str | Unset): Assignee
            value (float | None | Unset): Value
            purchased_at (datetime.date | None | Unset): Purchase date
     """

    id: str
    name: str
    serial_no: str
    created_at: datetime.datetime
    updated_at: datetime.datetime
    status: AssetStatus | Unset = UNSET
    assignee: None | str | Unset = UNSET
    value: float | None | Unset = UNSET
    purchased_at: datetime.date | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        serial_no = self.serial_no

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value


        assignee: None | str | Unset
        if isinstance(self.assignee, Unset):
            assignee = UNSET
        else:
            assignee = self.assignee

        value: float | None | Unset
        if isinstance(self.value, Unset):
            value = UNSET
        else:
            value = self.value

        purchased_at: None | str | Unset
        if isinstance(self.purchased_at, Unset):
            purchased_at = UNSET
        elif isinstance(self.purchased_at, datetime.date):
            purchased_at = self.purchased_at.isoformat()
        else:
            purchased_at = self.purchased_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "name": name,
            "serialNo": serial_no,
            "created_at": created_at,
            "updated_at": updated_at,
        })
        if status is not UNSET:
            field_dict["status"] = status
        if assignee is not UNSET:
            field_dict["assignee"] = assignee
        if value is not UNSET:
            field_dict["value"] = value
        if purchased_at is not UNSET:
            field_dict["purchasedAt"] = purchased_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        serial_no = d.pop("serialNo")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))




        _status = d.pop("status", UNSET)
        status: AssetStatus | Unset
        if isinstance(_status,  Unset):
            status = UNSET
        else:
            status = AssetStatus(_status)




        def _parse_assignee(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        assignee = _parse_assignee(d.pop("assignee", UNSET))


        def _parse_value(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        value = _parse_value(d.pop("value", UNSET))


        def _parse_purchased_at(data: object) -> datetime.date | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                purchased_at_type_0 = datetime.date.fromisoformat(data)



                return purchased_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | None | Unset, data)

        purchased_at = _parse_purchased_at(d.pop("purchasedAt", UNSET))


        asset = cls(
            id=id,
            name=name,
            serial_no=serial_no,
            created_at=created_at,
            updated_at=updated_at,
            status=status,
            assignee=assignee,
            value=value,
            purchased_at=purchased_at,
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
