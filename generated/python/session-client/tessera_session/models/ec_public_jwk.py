from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.ec_public_jwk_alg import EcPublicJwkAlg
from ..models.ec_public_jwk_crv import EcPublicJwkCrv
from ..models.ec_public_jwk_kty import EcPublicJwkKty
from ..models.ec_public_jwk_use import EcPublicJwkUse
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="EcPublicJwk")



@_attrs_define
class EcPublicJwk:
    """ An EC P-256 public key (`x` and `y`, 32 bytes each, base64url).

        Attributes:
            kty (EcPublicJwkKty):
            crv (EcPublicJwkCrv):
            x (str):
            y (str):
            kid (str | Unset):
            alg (EcPublicJwkAlg | Unset):
            use (EcPublicJwkUse | Unset):
            key_ops (list[str] | Unset): Accepted and dropped (RFC 7517 section 4.3; PyJWT writes `[verify]`).
     """

    kty: EcPublicJwkKty
    crv: EcPublicJwkCrv
    x: str
    y: str
    kid: str | Unset = UNSET
    alg: EcPublicJwkAlg | Unset = UNSET
    use: EcPublicJwkUse | Unset = UNSET
    key_ops: list[str] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        kty = self.kty.value

        crv = self.crv.value

        x = self.x

        y = self.y

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
            "y": y,
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
        kty = EcPublicJwkKty(d.pop("kty"))




        crv = EcPublicJwkCrv(d.pop("crv"))




        x = d.pop("x")

        y = d.pop("y")

        kid = d.pop("kid", UNSET)

        _alg = d.pop("alg", UNSET)
        alg: EcPublicJwkAlg | Unset
        if isinstance(_alg,  Unset):
            alg = UNSET
        else:
            alg = EcPublicJwkAlg(_alg)




        _use = d.pop("use", UNSET)
        use: EcPublicJwkUse | Unset
        if isinstance(_use,  Unset):
            use = UNSET
        else:
            use = EcPublicJwkUse(_use)




        key_ops = cast(list[str], d.pop("key_ops", UNSET))


        ec_public_jwk = cls(
            kty=kty,
            crv=crv,
            x=x,
            y=y,
            kid=kid,
            alg=alg,
            use=use,
            key_ops=key_ops,
        )

        return ec_public_jwk

