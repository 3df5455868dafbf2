from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.okp_public_jwk_alg import OkpPublicJwkAlg
from ..models.okp_public_jwk_crv import OkpPublicJwkCrv
from ..models.okp_public_jwk_kty import OkpPublicJwkKty
from ..models.okp_public_jwk_use import OkpPublicJwkUse
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="OkpPublicJwk")



@_attrs_define
class OkpPublicJwk:
    """ An Ed25519 public key (`x`, 32 bytes, base64url).

        Example:
            {'kty': 'OKP', 'crv': 'Ed25519', 'kid': 'key-1', 'x': '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo'}

        Attributes:
            kty (OkpPublicJwkKty):
            crv (OkpPublicJwkCrv):
            x (str):
            kid (str | Unset):
            alg (OkpPublicJwkAlg | Unset):
            use (OkpPublicJwkUse | Unset):
            key_ops (list[str] | Unset): Accepted and dropped (RFC 7517 section 4.3; PyJWT writes `[verify]`).
     """

    kty: OkpPublicJwkKty
    crv: OkpPublicJwkCrv
    x: str
    kid: str | Unset = UNSET
    alg: OkpPublicJwkAlg | Unset = UNSET
    use: OkpPublicJwkUse | Unset = UNSET
    key_ops: list[str] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        kty = self.kty.value

        crv = self.crv.value

        x = self.x

        kid = self.kid

        alg: str | Unset = UNSET
        if not isinstance(self.alg, Unset):
            alg = self.alg.value


        use: str | Unset = UNSET
        if not isinstance(self.use, Unset):
            use = self.use.value


        key_ops: list[str] | Unset = UNSET
        if not isinstance(self.key_ops, Unset):
            key_ops = self.key_ops




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "kty": kty,
            "crv": crv,
            "x": x,
        })
        if kid is not UNSET:
            field_dict["kid"] = kid
        if alg is not UNSET:
            field_dict["alg"] = alg
        if use is not UNSET:
            field_dict["use"] = use
        if key_ops is not UNSET:
            field_dict["key_ops"] = key_ops

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kty = OkpPublicJwkKty(d.pop("kty"))




        crv = OkpPublicJwkCrv(d.pop("crv"))




        x = d.pop("x")

        kid = d.pop("kid", UNSET)

        _alg = d.pop("alg", UNSET)
        alg: OkpPublicJwkAlg | Unset
        if isinstance(_alg,  Unset):
            alg = UNSET
        else:
            alg = OkpPublicJwkAlg(_alg)




        _use = d.pop("use", UNSET)
        use: OkpPublicJwkUse | Unset
        if isinstance(_use,  Unset):
            use = UNSET
        else:
            use = OkpPublicJwkUse(_use)




        key_ops = cast(list[str], d.pop("key_ops", UNSET))


        okp_public_jwk = cls(
            kty=kty,
            crv=crv,
            x=x,
            kid=kid,
            alg=alg,
            use=use,
            key_ops=key_ops,
        )

        return okp_public_jwk

