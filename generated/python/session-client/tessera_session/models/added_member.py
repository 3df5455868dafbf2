from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.member_role import MemberRole






T = TypeVar("T", bound="AddedMember")



@_attrs_define
class AddedMember:
    """ The member just added.

        Example:
            {'userPid': 'usr_j37xq43c1hj6a5z1c90rp4t72y', 'email': 'viewer@demo.example', 'username': 'Demo Viewer', 'role':
                'maintainer'}

        Attributes:
            user_pid (str):
            email (str):
            username (str):
            role (MemberRole): A member's role in an application: `owner` (everything, including members, installations
                and credentials), `maintainer` and `viewer` (read the application, its members and its
                installations).
                 Example: maintainer.
     """

    user_pid: str
    email: str
    username: str
    role: MemberRole
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        user_pid = self.user_pid

        email = self.email

        username = self.username

        role = self.role.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "userPid": user_pid,
            "email": email,
            "username": username,
            "role": role,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        user_pid = d.pop("userPid")

        email = d.pop("email")

        username = d.pop("username")

        role = MemberRole(d.pop("role"))




        added_member = cls(
            user_pid=user_pid,
            email=email,
            username=username,
            role=role,
        )


        added_member.additional_properties = d
        return added_member

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
