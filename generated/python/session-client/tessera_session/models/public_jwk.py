from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.public_jwk_alg import PublicJwkAlg
from ..models.public_jwk_crv import PublicJwkCrv
from ..models.public_jwk_kty import PublicJwkKty
from ..models.public_jwk_use import PublicJwkUse
from ..types import UNSET, Unset






T = TypeVar("T", bound="PublicJwk")



@_attrs_define
class PublicJwk:
    """ A public JSON Web Key (RFC 7517): RSA of 2048 bits or more, EC P-256 or Ed25519 (`OKP`). Private members (`d`, `p`,
    `q`, `dp`, `dq`, `qi`, `oth`, `k`) are refused.

        Example:
            {'kty': 'OKP', 'crv': 'Ed25519', 'kid': 'key-1', 'x': '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo'}

        Attributes:
            kty (PublicJwkKty):
            crv (PublicJwkCrv | Unset):
            kid (str | Unset):
            alg (PublicJwkAlg | Unset):
            use (PublicJwkUse | Unset):
            n (str | Unset):
            e (str | Unset):
            x (str | Unset):
            y (str | Unset):
     """

    kty: PublicJwkKty
    crv: PublicJwkCrv | Unset = UNSET
    kid: str | Unset = UNSET
    alg: PublicJwkAlg | Unset = UNSET
    use: PublicJwkUse | Unset = UNSET
    n: str | Unset = UNSET
    e: str | Unset = UNSET
    x: str | Unset = UNSET
    y: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        kty = self.kty.value

        crv: str | Unset = UNSET
        if not isinstance(self.crv, Unset):
            crv = self.crv.value


        kid = self.kid

        alg: str | Unset = UNSET
        if not isinstance(self.alg, Unset):
            alg = self.alg.value


        use: str | Unset = UNSET
        if not isinstance(self.use, Unset):
            use = self.use.value


        n = self.n

        e = self.e

        x = self.x

        y = self.y


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "kty": kty,
        })
        if crv is not UNSET:
            field_dict["crv"] = crv
        if kid is not UNSET:
            field_dict["kid"] = kid
        if alg is not UNSET:
            field_dict["alg"] = alg
        if use is not UNSET:
            field_dict["use"] = use
        if n is not UNSET:
            field_dict["n"] = n
        if e is not UNSET:
            field_dict["e"] = e
        if x is not UNSET:
            field_dict["x"] = x
        if y is not UNSET:
            field_dict["y"] = y

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kty = PublicJwkKty(d.pop("kty"))




        _crv = d.pop("crv", UNSET)
        crv: PublicJwkCrv | Unset
        if isinstance(_crv,  Unset):
            crv = UNSET
        else:
            crv = PublicJwkCrv(_crv)




        kid = d.pop("kid", UNSET)

        _alg = d.pop("alg", UNSET)
        alg: PublicJwkAlg | Unset
        if isinstance(_alg,  Unset):
            alg = UNSET
        else:
            alg = PublicJwkAlg(_alg)




        _use = d.pop("use", UNSET)
        use: PublicJwkUse | Unset
        if isinstance(_use,  Unset):
            use = UNSET
        else:
            use = PublicJwkUse(_use)




        n = d.pop("n", UNSET)

        e = d.pop("e", UNSET)

        x = d.pop("x", UNSET)

        y = d.pop("y", UNSET)

        public_jwk = cls(
            kty=kty,
            crv=crv,
            kid=kid,
            alg=alg,
            use=use,
            n=n,
            e=e,
            x=x,
            y=y,
        )


        public_jwk.additional_properties = d
        return public_jwk

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
