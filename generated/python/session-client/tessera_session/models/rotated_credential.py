from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="RotatedCredential")



@_attrs_define
class RotatedCredential:
    """ The new pair (its secret shown only in this response) and the old pair's grace end.

        Example:
            {'clientId': 'tcli_df59b36b7a6021f5d410f51a', 'clientSecret':
                'tsec_cP4dISsveHMdza-V9g0EnXmR3nMMZPmEn7N4Ax7Yvx0', 'installationId': 'ins_tem0n4ppxp001k9644h7d5v225',
                'previousClientId': 'tcli_c4668f8f8af8e62f8660adbe', 'previousExpiresAt': '2026-11-23T08:00:00.000Z'}

        Attributes:
            client_id (str):
            client_secret (str): Shown exactly once; only a keyed digest is stored.
            installation_id (str):
            previous_client_id (str):
            previous_expires_at (datetime.datetime): When the old pair stops working (now plus `graceSeconds`).
     """

    client_id: str
    client_secret: str
    installation_id: str
    previous_client_id: str
    previous_expires_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        client_id = self.client_id

        client_secret = self.client_secret

        installation_id = self.installation_id

        previous_client_id = self.previous_client_id

        previous_expires_at = self.previous_expires_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "clientId": client_id,
            "clientSecret": client_secret,
            "installationId": installation_id,
            "previousClientId": previous_client_id,
            "previousExpiresAt": previous_expires_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        client_id = d.pop("clientId")

        client_secret = d.pop("clientSecret")

        installation_id = d.pop("installationId")

        previous_client_id = d.pop("previousClientId")

        previous_expires_at = datetime.datetime.fromisoformat(d.pop("previousExpiresAt"))




        rotated_credential = cls(
            client_id=client_id,
            client_secret=client_secret,
            installation_id=installation_id,
            previous_client_id=previous_client_id,
            previous_expires_at=previous_expires_at,
        )


        rotated_credential.additional_properties = d
        return rotated_credential

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
