from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.revoked_credential_status import RevokedCredentialStatus






T = TypeVar("T", bound="RevokedCredential")



@_attrs_define
class RevokedCredential:
    """ 
        Example:
            {'clientId': 'tcli_c4668f8f8af8e62f8660adbe', 'status': 'revoked'}

        Attributes:
            client_id (str):
            status (RevokedCredentialStatus):
     """

    client_id: str
    status: RevokedCredentialStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        client_id = self.client_id

        status = self.status.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "clientId": client_id,
            "status": status,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        client_id = d.pop("clientId")

        status = RevokedCredentialStatus(d.pop("status"))




        revoked_credential = cls(
            client_id=client_id,
            status=status,
        )


        revoked_credential.additional_properties = d
        return revoked_credential

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
