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






T = TypeVar("T", bound="AssetUpdatePayload")



@_attrs_define
class AssetUpdatePayload:
    """ The `asset` fields to change; the others keep their values.

        Attributes:
            name (str | Unset): Name
            serial_no (str | Unset): Serial number
            status (AssetStatus | Unset): The values of `status` of an `asset` record.
            assignee (None | str | Unset): Assignee (null clears it).
            value (float | Unset): Value
            purchased_at (datetime.date | Unset): Purchase date
     """

    name: str | Unset = UNSET
    serial_no: str | Unset = UNSET
    status: AssetStatus | Unset = UNSET
    assignee: None | str | Unset = UNSET
    value: float | Unset = UNSET
    purchased_at: datetime.date | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        serial_no = self.serial_no

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value


        assignee: None | str | Unset
        if isinstance(self.assignee, Unset):
            assignee = UNSET
        else:
            assignee = self.assignee

        value = self.value

        purchased_at: str | Unset = UNSET
        if not isinstance(self.purchased_at, Unset):
            purchased_at = self.purchased_at.isoformat()


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if name is not UNSET:
            field_dict["name"] = name
        if serial_no is not UNSET:
            field_dict["serialNo"] = serial_no
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
        name = d.pop("name", UNSET)

        serial_no = d.pop("serialNo", UNSET)

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


        value = d.pop("value", UNSET)

        _purchased_at = d.pop("purchasedAt", UNSET)
        purchased_at: datetime.date | Unset
        if isinstance(_purchased_at,  Unset):
            purchased_at = UNSET
        else:
            purchased_at = datetime.date.fromisoformat(_purchased_at)




        asset_update_payload = cls(
            name=name,
            serial_no=serial_no,
            status=status,
            assignee=assignee,
            value=value,
            purchased_at=purchased_at,
        )

        return asset_update_payload

