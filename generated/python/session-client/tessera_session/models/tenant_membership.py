from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="TenantMembership")



@_attrs_define
class TenantMembership:
    """ A tenant the user is a member of, with the user's role there.

        Example:
            {'tenantId': 'acme', 'name': 'Acme Industries', 'role': 'viewer', 'status': 'member'}

        Attributes:
            tenant_id (str): Code of the tenant.
            name (str): Display name of the tenant.
            role (str): The user's role in the tenant (a role of `models.yaml`, e.g. `admin`, `viewer`).
            status (str): The membership's status (`member`).
     """

    tenant_id: str
    name: str
    role: str
    status: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        tenant_id = self.tenant_id

        name = self.name

        role = self.role

        status = self.status


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "tenantId": tenant_id,
            "name": name,
            "role": role,
            "status": status,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        tenant_id = d.pop("tenantId")

        name = d.pop("name")

        role = d.pop("role")

        status = d.pop("status")

        tenant_membership = cls(
            tenant_id=tenant_id,
            name=name,
            role=role,
            status=status,
        )


        tenant_membership.additional_properties = d
        return tenant_membership

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
