from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.member_role import MemberRole






T = TypeVar("T", bound="AddMemberRequest")



@_attrs_define
class AddMemberRequest:
    """ 
        Example:
            {'userPid': 'usr_j37xq43c1hj6a5z1c90rp4t72y', 'role': 'maintainer'}

        Attributes:
            user_pid (str): Public id of the user to add; an unknown user is `VALIDATION_ERROR` on `userPid`.
            role (MemberRole): A member's role in an application: `owner` (everything, including members, installations
                and credentials), `maintainer` and `viewer` (read the application, its members and its
                installations).
                 Example: maintainer.
     """

    user_pid: str
    role: MemberRole





    def to_dict(self) -> dict[str, Any]:
        user_pid = self.user_pid

        role = self.role.value


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "userPid": user_pid,
            "role": role,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        user_pid = d.pop("userPid")

        role = MemberRole(d.pop("role"))




        add_member_request = cls(
            user_pid=user_pid,
            role=role,
        )

        return add_member_request

