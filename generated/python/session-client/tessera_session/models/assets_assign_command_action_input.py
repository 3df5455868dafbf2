from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="AssetsAssignCommandActionInput")



@_attrs_define
class AssetsAssignCommandActionInput:
    """ The input of `assets.assign`.

        Attributes:
            assignee (bool | float | str | Unset): A constant (text, a number or a boolean), or an event path
                (`$.data.<field>`...).
     """

    assignee: bool | float | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        assignee: bool | float | str | Unset
        if isinstance(self.assignee, Unset):
            assignee = UNSET
        else:
            assignee = self.assignee


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if assignee is not UNSET:
            field_dict["assignee"] = assignee

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_assignee(data: object) -> bool | float | str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(bool | float | str | Unset, data)

        assignee = _parse_assignee(d.pop("assignee", UNSET))


        assets_assign_command_action_input = cls(
            assignee=assignee,
        )

        return assets_assign_command_action_input

