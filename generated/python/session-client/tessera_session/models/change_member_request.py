from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.member_role import MemberRole






T = TypeVar("T", bound="ChangeMemberRequest")



@_attrs_define
class ChangeMemberRequest:
    """ 
        Example:
            {'role': 'owner'}

        Attributes:
            role (MemberRole): A member's role in an application: `owner` (everything, including members, installations
                and credentials), `maintainer` and `viewer` (read the application, its members and its
                installations).
                 Example: maintainer.
     """

    role: MemberRole





    def to_dict(self) -> dict[str, Any]:
        role = self.role.value


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "role": role,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        role = MemberRole(d.pop("role"))




        change_member_request = cls(
            role=role,
        )

        return change_member_request

