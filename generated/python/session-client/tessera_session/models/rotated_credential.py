from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.credential_kind import CredentialKind
from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.credential_key import CredentialKey





T = TypeVar("T", bound="RotatedCredential")



@_attrs_define
class RotatedCredential:
    """ The new credential (its secret shown only in this response, or its keys) and the old one's grace end.

        Example:
            {'clientId': 'tcli_df59b36b7a6021f5d410f51a', 'kind': 'secret', 'clientSecret':
                'tsec_cP4dISsveHMdza-V9g0EnXmR3nMMZPmEn7N4Ax7Yvx0', 'installationId': 'ins_tem0n4ppxp001k9644h7d5v225',
                'previousClientId': 'tcli_c4668f8f8af8e62f8660adbe', 'previousExpiresAt': '2026-11-23T08:00:00.000Z'}

        Attributes:
            client_id (str):
            kind (CredentialKind): `secret`: the client authenticates with its client secret; `private_key_jwt`: with a
                client assertion signed by a private key whose public key the credential holds (RFC 7523).
            installation_id (str):
            previous_client_id (str):
            previous_expires_at (datetime.datetime): When the old pair stops working (now plus `graceSeconds`).
            client_secret (str | Unset): Shown exactly once; only a keyed digest is stored. Only for a `secret` credential.
            keys (list[CredentialKey] | Unset): The new public keys (a `private_key_jwt` credential).
     """

    client_id: str
    kind: CredentialKind
    installation_id: str
    previous_client_id: str
    previous_expires_at: datetime.datetime
    client_secret: str | Unset = UNSET
    keys: list[CredentialKey] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.credential_key import CredentialKey # noqa: PLC0415
        client_id = self.client_id

        kind = self.kind.value

        installation_id = self.installation_id

        previous_client_id = self.previous_client_id

        previous_expires_at = self.previous_expires_at.isoformat()

        client_secret = self.client_secret

        keys: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.keys, Unset):
            keys = []
            for keys_item_data in self.keys:
                keys_item = keys_item_data.to_dict()
                keys.append(keys_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "clientId": client_id,
            "kind": kind,
            "installationId": installation_id,
            "previousClientId": previous_client_id,
            "previousExpiresAt": previous_expires_at,
        })
        if client_secret is not UNSET:
            field_dict["clientSecret"] = client_secret
        if keys is not UNSET:
            field_dict["keys"] = keys

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.credential_key import CredentialKey # noqa: PLC0415
        d = dict(src_dict)
        client_id = d.pop("clientId")

        kind = CredentialKind(d.pop("kind"))




        installation_id = d.pop("installationId")

        previous_client_id = d.pop("previousClientId")

        previous_expires_at = datetime.datetime.fromisoformat(d.pop("previousExpiresAt"))




        client_secret = d.pop("clientSecret", UNSET)

        _keys = d.pop("keys", UNSET)
        keys: list[CredentialKey] | Unset = UNSET
        if _keys is not UNSET:
            keys = []
            for keys_item_data in _keys:
                keys_item = CredentialKey.from_dict(keys_item_data)



                keys.append(keys_item)


        rotated_credential = cls(
            client_id=client_id,
            kind=kind,
            installation_id=installation_id,
            previous_client_id=previous_client_id,
            previous_expires_at=previous_expires_at,
            client_secret=client_secret,
            keys=keys,
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
