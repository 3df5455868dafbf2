from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.member_role import MemberRole
from ..types import UNSET, Unset






T = TypeVar("T", bound="AddMemberRequest")



@_attrs_define
class AddMemberRequest:
    """ `role` and the user, named by exactly one of `userPid` and `email`.

        Example:
            {'userPid': 'usr_j37xq43c1hj6a5z1c90rp4t72y', 'role': 'maintainer'}

        Attributes:
            role (MemberRole): A member's role in an application: `owner` (everything, including members, installations
                and credentials), `maintainer` and `viewer` (read the application, its members and its
                installations).
                 Example: maintainer.
            user_pid (str | Unset): Public id of the user to add; an unknown user is 404 `NOT_FOUND`.
            email (str | Unset): Email of the user to add, who must share a tenant with the caller; any other email is
                404 `NOT_FOUND`.
     """

    role: MemberRole
    user_pid: str | Unset = UNSET
    email: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        role = self.role.value

        user_pid = self.user_pid

        email = self.email


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "role": role,
        })
        if user_pid is not UNSET:
            field_dict["userPid"] = user_pid
        if email is not UNSET:
            field_dict["email"] = email

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        role = MemberRole(d.pop("role"))




        user_pid = d.pop("userPid", UNSET)

        email = d.pop("email", UNSET)

        add_member_request = cls(
            role=role,
            user_pid=user_pid,
            email=email,
        )

        return add_member_request

