from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.jwks import Jwks
  from ..models.public_jwk import PublicJwk





T = TypeVar("T", bound="RotateCredentialRequest")



@_attrs_define
class RotateCredentialRequest:
    """ `graceSeconds`; for a `private_key_jwt` credential also its new key, `publicJwk` or `jwks` (not both).

        Example:
            {'graceSeconds': 86400}

        Attributes:
            grace_seconds (int): How long the old pair keeps obtaining tokens, 5 minutes to 7 days.
            public_jwk (PublicJwk | Unset): A public JSON Web Key (RFC 7517): RSA of 2048 bits or more, EC P-256 or Ed25519
                (`OKP`). Private members (`d`, `p`, `q`, `dp`, `dq`, `qi`, `oth`, `k`) are refused. Example: {'kty': 'OKP',
                'crv': 'Ed25519', 'kid': 'key-1', 'x': '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo'}.
            jwks (Jwks | Unset): A JWK Set of 1 to 5 public keys. Example: {'keys': [{'kty': 'OKP', 'crv': 'Ed25519', 'kid':
                'key-1', 'x': '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo'}]}.
     """

    grace_seconds: int
    public_jwk: PublicJwk | Unset = UNSET
    jwks: Jwks | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.jwks import Jwks # noqa: PLC0415
        from ..models.public_jwk import PublicJwk # noqa: PLC0415
        grace_seconds = self.grace_seconds

        public_jwk: dict[str, Any] | Unset = UNSET
        if not isinstance(self.public_jwk, Unset):
            public_jwk = self.public_jwk.to_dict()

        jwks: dict[str, Any] | Unset = UNSET
        if not isinstance(self.jwks, Unset):
            jwks = self.jwks.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "graceSeconds": grace_seconds,
        })
        if public_jwk is not UNSET:
            field_dict["publicJwk"] = public_jwk
        if jwks is not UNSET:
            field_dict["jwks"] = jwks

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.jwks import Jwks # noqa: PLC0415
        from ..models.public_jwk import PublicJwk # noqa: PLC0415
        d = dict(src_dict)
        grace_seconds = d.pop("graceSeconds")

        _public_jwk = d.pop("publicJwk", UNSET)
        public_jwk: PublicJwk | Unset
        if isinstance(_public_jwk,  Unset):
            public_jwk = UNSET
        else:
            public_jwk = PublicJwk.from_dict(_public_jwk)




        _jwks = d.pop("jwks", UNSET)
        jwks: Jwks | Unset
        if isinstance(_jwks,  Unset):
            jwks = UNSET
        else:
            jwks = Jwks.from_dict(_jwks)




        rotate_credential_request = cls(
            grace_seconds=grace_seconds,
            public_jwk=public_jwk,
            jwks=jwks,
        )

        return rotate_credential_request

