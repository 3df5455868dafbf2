from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.rsa_public_jwk_alg import RsaPublicJwkAlg
from ..models.rsa_public_jwk_kty import RsaPublicJwkKty
from ..models.rsa_public_jwk_use import RsaPublicJwkUse
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="RsaPublicJwk")



@_attrs_define
class RsaPublicJwk:
    """ An RSA public key of 2048 bits or more (`n` base64url, at least 342 characters).

        Attributes:
            kty (RsaPublicJwkKty):
            n (str):
            e (str):
            kid (str | Unset):
            alg (RsaPublicJwkAlg | Unset):
            use (RsaPublicJwkUse | Unset):
            key_ops (list[str] | Unset): Accepted and dropped (RFC 7517 section 4.3; PyJWT writes `[verify]`).
     """

    kty: RsaPublicJwkKty
    n: str
    e: str
    kid: str | Unset = UNSET
    alg: RsaPublicJwkAlg | Unset = UNSET
    use: RsaPublicJwkUse | Unset = UNSET
    key_ops: list[str] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        kty = self.kty.value

        n = self.n

        e = self.e

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
            "n": n,
            "e": e,
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
        kty = RsaPublicJwkKty(d.pop("kty"))




        n = d.pop("n")

        e = d.pop("e")

        kid = d.pop("kid", UNSET)

        _alg = d.pop("alg", UNSET)
        alg: RsaPublicJwkAlg | Unset
        if isinstance(_alg,  Unset):
            alg = UNSET
        else:
            alg = RsaPublicJwkAlg(_alg)




        _use = d.pop("use", UNSET)
        use: RsaPublicJwkUse | Unset
        if isinstance(_use,  Unset):
            use = UNSET
        else:
            use = RsaPublicJwkUse(_use)




        key_ops = cast(list[str], d.pop("key_ops", UNSET))


        rsa_public_jwk = cls(
            kty=kty,
            n=n,
            e=e,
            kid=kid,
            alg=alg,
            use=use,
            key_ops=key_ops,
        )

        return rsa_public_jwk

