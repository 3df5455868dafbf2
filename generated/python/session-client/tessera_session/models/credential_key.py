from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.credential_key_alg import CredentialKeyAlg
from ..models.credential_key_kty import CredentialKeyKty
from typing import cast






T = TypeVar("T", bound="CredentialKey")



@_attrs_define
class CredentialKey:
    """ A registered public key as listed (never its key material).

        Example:
            {'kty': 'EC', 'alg': 'ES256', 'kid': 'key-2026-11'}

        Attributes:
            kty (CredentialKeyKty):
            alg (CredentialKeyAlg):
            kid (None | str):
     """

    kty: CredentialKeyKty
    alg: CredentialKeyAlg
    kid: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        kty = self.kty.value

        alg = self.alg.value

        kid: None | str
        kid = self.kid


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "kty": kty,
            "alg": alg,
            "kid": kid,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kty = CredentialKeyKty(d.pop("kty"))




        alg = CredentialKeyAlg(d.pop("alg"))




        def _parse_kid(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        kid = _parse_kid(d.pop("kid"))


        credential_key = cls(
            kty=kty,
            alg=alg,
            kid=kid,
        )


        credential_key.additional_properties = d
        return credential_key

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
