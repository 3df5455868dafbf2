from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.environment import Environment
from ..models.scope_list_item import ScopeListItem
from typing import cast






T = TypeVar("T", bound="CreateInstallationRequest")



@_attrs_define
class CreateInstallationRequest:
    """ 
        Example:
            {'tenantId': 'demo', 'environment': 'production', 'scopes': ['assets.read', 'assets.manage']}

        Attributes:
            tenant_id (str): Code of the target tenant; the caller must administer it (else `TENANT_FORBIDDEN`).
            environment (Environment): The environment an installation serves. Example: production.
            scopes (list[ScopeListItem]): Scopes granted to the installation; each must be one a published capability needs
                (else `VALIDATION_ERROR` on `scopes`). Stored sorted.
                 Example: ['assets.read', 'assets.manage'].
     """

    tenant_id: str
    environment: Environment
    scopes: list[ScopeListItem]





    def to_dict(self) -> dict[str, Any]:
        tenant_id = self.tenant_id

        environment = self.environment.value

        scopes = []
        for componentsschemas_scope_list_item_data in self.scopes:
            componentsschemas_scope_list_item = componentsschemas_scope_list_item_data.value
            scopes.append(componentsschemas_scope_list_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "tenantId": tenant_id,
            "environment": environment,
            "scopes": scopes,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        tenant_id = d.pop("tenantId")

        environment = Environment(d.pop("environment"))




        scopes = []
        _scopes = d.pop("scopes")
        for componentsschemas_scope_list_item_data in (_scopes):
            componentsschemas_scope_list_item = ScopeListItem(componentsschemas_scope_list_item_data)



            scopes.append(componentsschemas_scope_list_item)


        create_installation_request = cls(
            tenant_id=tenant_id,
            environment=environment,
            scopes=scopes,
        )

        return create_installation_request

