from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="AssetsUpdateSessionActionPayload")



@_attrs_define
class AssetsUpdateSessionActionPayload:
    """ The `asset` fields to write.

        Attributes:
            name (bool | float | str | Unset): A constant (text, a number or a boolean), or an event path
                (`$.data.<field>`...).
            serial_no (bool | float | str | Unset): A constant (text, a number or a boolean), or an event path
                (`$.data.<field>`...).
            status (bool | float | str | Unset): A constant (text, a number or a boolean), or an event path
                (`$.data.<field>`...).
            assignee (bool | float | str | Unset): A constant (text, a number or a boolean), or an event path
                (`$.data.<field>`...).
            value (bool | float | str | Unset): A constant (text, a number or a boolean), or an event path
                (`$.data.<field>`...).
            purchased_at (bool | float | str | Unset): A constant (text, a number or a boolean), or an event path
                (`$.data.<field>`...).
     """

    name: bool | float | str | Unset = UNSET
    serial_no: bool | float | str | Unset = UNSET
    status: bool | float | str | Unset = UNSET
    assignee: bool | float | str | Unset = UNSET
    value: bool | float | str | Unset = UNSET
    purchased_at: bool | float | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        name: bool | float | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        serial_no: bool | float | str | Unset
        if isinstance(self.serial_no, Unset):
            serial_no = UNSET
        else:
            serial_no = self.serial_no

        status: bool | float | str | Unset
        if isinstance(self.status, Unset):
            status = UNSET
        else:
            status = self.status

        assignee: bool | float | str | Unset
        if isinstance(self.assignee, Unset):
            assignee = UNSET
        else:
            assignee = self.assignee

        value: bool | float | str | Unset
        if isinstance(self.value, Unset):
            value = UNSET
        else:
            value = self.value

        purchased_at: bool | float | str | Unset
        if isinstance(self.purchased_at, Unset):
            purchased_at = UNSET
        else:
            purchased_at = self.purchased_at


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
        def _parse_name(data: object) -> bool | float | str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(bool | float | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))


        def _parse_serial_no(data: object) -> bool | float | str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(bool | float | str | Unset, data)

        serial_no = _parse_serial_no(d.pop("serialNo", UNSET))


        def _parse_status(data: object) -> bool | float | str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(bool | float | str | Unset, data)

        status = _parse_status(d.pop("status", UNSET))


        def _parse_assignee(data: object) -> bool | float | str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(bool | float | str | Unset, data)

        assignee = _parse_assignee(d.pop("assignee", UNSET))


        def _parse_value(data: object) -> bool | float | str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(bool | float | str | Unset, data)

        value = _parse_value(d.pop("value", UNSET))


        def _parse_purchased_at(data: object) -> bool | float | str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(bool | float | str | Unset, data)

        purchased_at = _parse_purchased_at(d.pop("purchasedAt", UNSET))


        assets_update_session_action_payload = cls(
            name=name,
            serial_no=serial_no,
            status=status,
            assignee=assignee,
            value=value,
            purchased_at=purchased_at,
        )

        return assets_update_session_action_payload

