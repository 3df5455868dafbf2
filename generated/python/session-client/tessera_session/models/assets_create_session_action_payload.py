from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="AssetsCreateSessionActionPayload")



@_attrs_define
class AssetsCreateSessionActionPayload:
    """ The `asset` fields to write.

        Attributes:
            name (Any | Unset): A constant, or an event path (`$.data.<field>`, `$.occurredAt`...).
            serial_no (Any | Unset): A constant, or an event path (`$.data.<field>`, `$.occurredAt`...).
            status (Any | Unset): A constant, or an event path (`$.data.<field>`, `$.occurredAt`...).
            assignee (Any | Unset): A constant, or an event path (`$.data.<field>`, `$.occurredAt`...).
            value (Any | Unset): A constant, or an event path (`$.data.<field>`, `$.occurredAt`...).
            purchased_at (Any | Unset): A constant, or an event path (`$.data.<field>`, `$.occurredAt`...).
     """

    name: Any | Unset = UNSET
    serial_no: Any | Unset = UNSET
    status: Any | Unset = UNSET
    assignee: Any | Unset = UNSET
    value: Any | Unset = UNSET
    purchased_at: Any | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        serial_no = self.serial_no

        status = self.status

        assignee = self.assignee

        value = self.value

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
        name = d.pop("name", UNSET)

        serial_no = d.pop("serialNo", UNSET)

        status = d.pop("status", UNSET)

        assignee = d.pop("assignee", UNSET)

        value = d.pop("value", UNSET)

        purchased_at = d.pop("purchasedAt", UNSET)

        assets_create_session_action_payload = cls(
            name=name,
            serial_no=serial_no,
            status=status,
            assignee=assignee,
            value=value,
            purchased_at=purchased_at,
        )

        return assets_create_session_action_payload

