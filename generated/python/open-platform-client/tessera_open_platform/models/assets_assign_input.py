from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="AssetsAssignInput")



@_attrs_define
class AssetsAssignInput:
    """ Input of `assets.assign`.

        Example:
            {'assignee': 'Dana Whitfield'}

        Attributes:
            assignee (str): Who holds the asset now.
     """

    assignee: str





    def to_dict(self) -> dict[str, Any]:
        assignee = self.assignee


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "assignee": assignee,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        assignee = d.pop("assignee")

        assets_assign_input = cls(
            assignee=assignee,
        )

        return assets_assign_input

