from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="LoginResult")



@_attrs_define
class LoginResult:
    """ 
        Attributes:
            jwt (str): Send as `Authorization: Bearer <jwt>`.
            user_id (str): The user's public id.
            user_pid (str): The user's public id.
            username (str):
            tenant_id (str): The tenant the session acts in. Example: demo.
            tenant_status (str):  Example: member.
     """

    jwt: str
    user_id: str
    user_pid: str
    username: str
    tenant_id: str
    tenant_status: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        jwt = self.jwt

        user_id = self.user_id

        user_pid = self.user_pid

        username = self.username

        tenant_id = self.tenant_id

        tenant_status = self.tenant_status


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "jwt": jwt,
            "userId": user_id,
            "userPid": user_pid,
            "username": username,
            "tenantId": tenant_id,
            "tenantStatus": tenant_status,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        jwt = d.pop("jwt")

        user_id = d.pop("userId")

        user_pid = d.pop("userPid")

        username = d.pop("username")

        tenant_id = d.pop("tenantId")

        tenant_status = d.pop("tenantStatus")

        login_result = cls(
            jwt=jwt,
            user_id=user_id,
            user_pid=user_pid,
            username=username,
            tenant_id=tenant_id,
            tenant_status=tenant_status,
        )


        login_result.additional_properties = d
        return login_result

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
