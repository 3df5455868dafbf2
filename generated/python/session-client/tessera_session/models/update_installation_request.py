from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.installation_status import InstallationStatus
from ..models.scope_list_item import ScopeListItem
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="UpdateInstallationRequest")



@_attrs_define
class UpdateInstallationRequest:
    """ Give `scopes` (replaces the granted scopes), `status`, or both.

        Example:
            {'scopes': ['assets.read'], 'status': 'disabled'}

        Attributes:
            scopes (list[ScopeListItem] | Unset): Scopes granted to the installation; each must be one a published
                capability needs
                (else `VALIDATION_ERROR` on `scopes`). Stored sorted.
                 Example: ['assets.read', 'assets.manage'].
            status (InstallationStatus | Unset): `disabled` stops the installation's credentials and tokens from working.
                Example: enabled.
     """

    scopes: list[ScopeListItem] | Unset = UNSET
    status: InstallationStatus | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        scopes: list[str] | Unset = UNSET
        if not isinstance(self.scopes, Unset):
            scopes = []
            for componentsschemas_scope_list_item_data in self.scopes:
                componentsschemas_scope_list_item = componentsschemas_scope_list_item_data.value
                scopes.append(componentsschemas_scope_list_item)



        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value



        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if scopes is not UNSET:
            field_dict["scopes"] = scopes
        if status is not UNSET:
            field_dict["status"] = status

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _scopes = d.pop("scopes", UNSET)
        scopes: list[ScopeListItem] | Unset = UNSET
        if _scopes is not UNSET:
            scopes = []
            for componentsschemas_scope_list_item_data in _scopes:
                componentsschemas_scope_list_item = ScopeListItem(componentsschemas_scope_list_item_data)



                scopes.append(componentsschemas_scope_list_item)


        _status = d.pop("status", UNSET)
        status: InstallationStatus | Unset
        if isinstance(_status,  Unset):
            status = UNSET
        else:
            status = InstallationStatus(_status)




        update_installation_request = cls(
            scopes=scopes,
            status=status,
        )

        return update_installation_request

