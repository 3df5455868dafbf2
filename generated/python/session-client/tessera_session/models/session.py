from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.tenant_membership import TenantMembership





T = TypeVar("T", bound="Session")



@_attrs_define
class Session:
    """ The signed-in user and the tenant the call acts in.

        Example:
            {'userPid': 'usr_4k9x2m7q1c8v5b3n6z0w8y2r4t', 'email': 'admin@demo.example', 'username': 'Demo Admin',
                'tenantId': 'demo', 'tenantName': 'Demo Corporation', 'tenantRole': 'admin', 'permissions': ['*'],
                'platformRoles': ['sys.connector.update'], 'tenants': [{'tenantId': 'acme', 'name': 'Acme Industries', 'role':
                'viewer', 'status': 'member'}, {'tenantId': 'demo', 'name': 'Demo Corporation', 'role': 'admin', 'status':
                'member'}], 'expiresAt': '2026-11-22T16:00:00.000Z'}

        Attributes:
            user_pid (str):
            email (str):
            username (str):
            tenant_id (str): The tenant the call acts in (the JWT's, or `X-Tenant-Id`).
            tenant_name (str):
            tenant_role (str): The user's role in that tenant.
            permissions (list[str]): The user's permission codes in that tenant, sorted; `*` means every permission.
            platform_roles (list[str]): Platform roles, sorted (`sys.connector.update` may create Open Platform
                applications).
            tenants (list[TenantMembership]): Every active tenant the user is a member of, by code.
            expires_at (datetime.datetime): When the JWT of this call expires; sign in again afterwards.
     """

    user_pid: str
    email: str
    username: str
    tenant_id: str
    tenant_name: str
    tenant_role: str
    permissions: list[str]
    platform_roles: list[str]
    tenants: list[TenantMembership]
    expires_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.tenant_membership import TenantMembership # noqa: PLC0415
        user_pid = self.user_pid

        email = self.email

        username = self.username

        tenant_id = self.tenant_id

        tenant_name = self.tenant_name

        tenant_role = self.tenant_role

        permissions = self.permissions



        platform_roles = self.platform_roles



        tenants = []
        for tenants_item_data in self.tenants:
            tenants_item = tenants_item_data.to_dict()
            tenants.append(tenants_item)



        expires_at = self.expires_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "userPid": user_pid,
            "email": email,
            "username": username,
            "tenantId": tenant_id,
            "tenantName": tenant_name,
            "tenantRole": tenant_role,
            "permissions": permissions,
            "platformRoles": platform_roles,
            "tenants": tenants,
            "expiresAt": expires_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.tenant_membership import TenantMembership # noqa: PLC0415
        d = dict(src_dict)
        user_pid = d.pop("userPid")

        email = d.pop("email")

        username = d.pop("username")

        tenant_id = d.pop("tenantId")

        tenant_name = d.pop("tenantName")

        tenant_role = d.pop("tenantRole")

        permissions = cast(list[str], d.pop("permissions"))


        platform_roles = cast(list[str], d.pop("platformRoles"))


        tenants = []
        _tenants = d.pop("tenants")
        for tenants_item_data in (_tenants):
            tenants_item = TenantMembership.from_dict(tenants_item_data)



            tenants.append(tenants_item)


        expires_at = datetime.datetime.fromisoformat(d.pop("expiresAt"))




        session = cls(
            user_pid=user_pid,
            email=email,
            username=username,
            tenant_id=tenant_id,
            tenant_name=tenant_name,
            tenant_role=tenant_role,
            permissions=permissions,
            platform_roles=platform_roles,
            tenants=tenants,
            expires_at=expires_at,
        )


        session.additional_properties = d
        return session

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
