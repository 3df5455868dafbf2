from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="Credential")



@_attrs_define
class Credential:
    """ A new client credential. `clientSecret` is shown only in this response.

        Example:
            {'clientId': 'tcli_c4668f8f8af8e62f8660adbe', 'clientSecret':
                'tsec_QwvG9ZDvcBAgJY1JZRF1IKQvSVKM56cBIV9GV0HakFo', 'installationId': 'ins_tem0n4ppxp001k9644h7d5v225',
                'created_at': '2026-11-22T08:00:00.000Z'}

        Attributes:
            client_id (str):
            client_secret (str): Shown exactly once; only a keyed digest is stored.
            installation_id (str):
            created_at (datetime.datetime):
     """

    client_id: str
    client_secret: str
    installation_id: str
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        client_id = self.client_id

        client_secret = self.client_secret

        installation_id = self.installation_id

        created_at = self.created_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "clientId": client_id,
            "clientSecret": client_secret,
            "installationId": installation_id,
            "created_at": created_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        client_id = d.pop("clientId")

        client_secret = d.pop("clientSecret")

        installation_id = d.pop("installationId")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        credential = cls(
            client_id=client_id,
            client_secret=client_secret,
            installation_id=installation_id,
            created_at=created_at,
        )


        credential.additional_properties = d
        return credential

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
