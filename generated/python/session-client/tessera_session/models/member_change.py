from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.member_change_role_type_1 import MemberChangeRoleType1
from ..models.member_change_role_type_2_type_1 import MemberChangeRoleType2Type1
from ..models.member_change_role_type_3_type_1 import MemberChangeRoleType3Type1
from typing import cast






T = TypeVar("T", bound="MemberChange")



@_attrs_define
class MemberChange:
    """ The result of a role change (`removed` false) or a removal (`role` null, `removed` true).

        Example:
            {'userPid': 'usr_j37xq43c1hj6a5z1c90rp4t72y', 'role': 'owner', 'removed': False}

        Attributes:
            user_pid (str):
            role (MemberChangeRoleType1 | MemberChangeRoleType2Type1 | MemberChangeRoleType3Type1 | None): The new role;
                null when the member was removed.
            removed (bool):
     """

    user_pid: str
    role: MemberChangeRoleType1 | MemberChangeRoleType2Type1 | MemberChangeRoleType3Type1 | None
    removed: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        user_pid = self.user_pid

        role: None | str
        if isinstance(self.role, MemberChangeRoleType1):
            role = self.role.value
        elif isinstance(self.role, MemberChangeRoleType2Type1):
            role = self.role.value
        elif isinstance(self.role, MemberChangeRoleType3Type1):
            role = self.role.value
        else:
            role = self.role

        removed = self.removed


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "userPid": user_pid,
            "role": role,
            "removed": removed,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        user_pid = d.pop("userPid")

        def _parse_role(data: object) -> MemberChangeRoleType1 | MemberChangeRoleType2Type1 | MemberChangeRoleType3Type1 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                role_type_1 = MemberChangeRoleType1(data)



                return role_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                role_type_2_type_1 = MemberChangeRoleType2Type1(data)



                return role_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                role_type_3_type_1 = MemberChangeRoleType3Type1(data)



                return role_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MemberChangeRoleType1 | MemberChangeRoleType2Type1 | MemberChangeRoleType3Type1 | None, data)

        role = _parse_role(d.pop("role"))


        removed = d.pop("removed")

        member_change = cls(
            user_pid=user_pid,
            role=role,
            removed=removed,
        )


        member_change.additional_properties = d
        return member_change

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
