from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.environment import Environment
from ..models.installation_status import InstallationStatus
from typing import cast
import datetime






T = TypeVar("T", bound="Installation")



@_attrs_define
class Installation:
    """ An application installed in one tenant and one environment.

        Example:
            {'installationId': 'ins_tem0n4ppxp001k9644h7d5v225', 'appId': 'app_cqdc33f1w4gfcs34ej039c6r21', 'tenantId':
                'demo', 'environment': 'production', 'scopes': ['assets.manage', 'assets.read'], 'status': 'enabled',
                'created_at': '2026-11-22T08:00:00.000Z', 'updated_at': '2026-11-22T08:00:00.000Z'}

        Attributes:
            installation_id (str):
            app_id (str):
            tenant_id (str): Code of the tenant.
            environment (Environment): The environment an installation serves. Example: production.
            scopes (list[str]): The granted scopes, sorted.
            status (InstallationStatus): `disabled` stops the installation's credentials and tokens from working. Example:
                enabled.
            created_at (datetime.datetime):
            updated_at (datetime.datetime):
     """

    installation_id: str
    app_id: str
    tenant_id: str
    environment: Environment
    scopes: list[str]
    status: InstallationStatus
    created_at: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        installation_id = self.installation_id

        app_id = self.app_id

        tenant_id = self.tenant_id

        environment = self.environment.value

        scopes = self.scopes



        status = self.status.value

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "installationId": installation_id,
            "appId": app_id,
            "tenantId": tenant_id,
            "environment": environment,
            "scopes": scopes,
            "status": status,
            "created_at": created_at,
            "updated_at": updated_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        installation_id = d.pop("installationId")

        app_id = d.pop("appId")

        tenant_id = d.pop("tenantId")

        environment = Environment(d.pop("environment"))




        scopes = cast(list[str], d.pop("scopes"))


        status = InstallationStatus(d.pop("status"))




        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))




        installation = cls(
            installation_id=installation_id,
            app_id=app_id,
            tenant_id=tenant_id,
            environment=environment,
            scopes=scopes,
            status=status,
            created_at=created_at,
            updated_at=updated_at,
        )


        installation.additional_properties = d
        return installation

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
