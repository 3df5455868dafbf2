from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="LoginRequest")



@_attrs_define
class LoginRequest:
    """ 
        Attributes:
            email (str):  Example: admin@demo.example.
            password (str):  Example: correct horse battery staple.
            tenant_id (str | Unset): Code of the tenant to act in; omitted, the user's default tenant. Example: demo.
     """

    email: str
    password: str
    tenant_id: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        email = self.email

        password = self.password

        tenant_id = self.tenant_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "email": email,
            "password": password,
        })
        if tenant_id is not UNSET:
            field_dict["tenantId"] = tenant_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        email = d.pop("email")

        password = d.pop("password")

        tenant_id = d.pop("tenantId", UNSET)

        login_request = cls(
            email=email,
            password=password,
            tenant_id=tenant_id,
        )

        return login_request

