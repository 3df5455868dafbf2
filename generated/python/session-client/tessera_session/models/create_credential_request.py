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





T = TypeVar("T", bound="CreateCredentialRequest")



@_attrs_define
class CreateCredentialRequest:
    """ Empty for a `secret` credential; `publicJwk` or `jwks` (not both) for a `private_key_jwt` credential.

        Example:
            {'publicJwk': {'kty': 'OKP', 'crv': 'Ed25519', 'kid': 'key-1', 'x':
                '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo'}}

        Attributes:
            public_jwk (PublicJwk | Unset): A public JSON Web Key (RFC 7517): RSA of 2048 bits or more, EC P-256 or Ed25519
                (`OKP`). Private members (`d`, `p`, `q`, `dp`, `dq`, `qi`, `oth`, `k`) are refused. Example: {'kty': 'OKP',
                'crv': 'Ed25519', 'kid': 'key-1', 'x': '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo'}.
            jwks (Jwks | Unset): A JWK Set of 1 to 5 public keys. Example: {'keys': [{'kty': 'OKP', 'crv': 'Ed25519', 'kid':
                'key-1', 'x': '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo'}]}.
     """

    public_jwk: PublicJwk | Unset = UNSET
    jwks: Jwks | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.jwks import Jwks # noqa: PLC0415
        from ..models.public_jwk import PublicJwk # noqa: PLC0415
        public_jwk: dict[str, Any] | Unset = UNSET
        if not isinstance(self.public_jwk, Unset):
            public_jwk = self.public_jwk.to_dict()

        jwks: dict[str, Any] | Unset = UNSET
        if not isinstance(self.jwks, Unset):
            jwks = self.jwks.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
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




        create_credential_request = cls(
            public_jwk=public_jwk,
            jwks=jwks,
        )

        return create_credential_request

