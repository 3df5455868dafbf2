from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.ec_public_jwk import EcPublicJwk
  from ..models.jwks import Jwks
  from ..models.okp_public_jwk import OkpPublicJwk
  from ..models.rsa_public_jwk import RsaPublicJwk





T = TypeVar("T", bound="CreateCredentialRequest")



@_attrs_define
class CreateCredentialRequest:
    """ Empty for a `secret` credential; `publicJwk` or `jwks` (not both) for a `private_key_jwt` credential.

        Example:
            {'publicJwk': {'kty': 'OKP', 'crv': 'Ed25519', 'kid': 'key-1', 'x':
                '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo'}}

        Attributes:
            public_jwk (EcPublicJwk | OkpPublicJwk | RsaPublicJwk | Unset): A public JSON Web Key (RFC 7517) for signing:
                RSA of 2048 bits or more (`RS256`), EC P-256 (`ES256`) or Ed25519 (`OKP`, `EdDSA`); `alg` and `use`, when given,
                must fit the key type. Only the members below are accepted (`key_ops` is dropped): any other, private ones (`d`,
                `p`, `q`, `dp`, `dq`, `qi`, `oth`, `k`) included, is refused. The key material must be a valid key of its type
                (a point on the curve, a modulus of 2048 bits or more), which no schema can state. Example: {'kty': 'OKP',
                'crv': 'Ed25519', 'kid': 'key-1', 'x': '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo'}.
            jwks (Jwks | Unset): A JWK Set of 1 to 5 public keys. `keys` is its only member: the service stores the keys
                alone, so any other member (RFC 7517 section 5 allows them) is refused rather than dropped unseen. Example:
                {'keys': [{'kty': 'OKP', 'crv': 'Ed25519', 'kid': 'key-1', 'x':
                '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo'}]}.
     """

    public_jwk: EcPublicJwk | OkpPublicJwk | RsaPublicJwk | Unset = UNSET
    jwks: Jwks | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.ec_public_jwk import EcPublicJwk # noqa: PLC0415
        from ..models.jwks import Jwks # noqa: PLC0415
        from ..models.okp_public_jwk import OkpPublicJwk # noqa: PLC0415
        from ..models.rsa_public_jwk import RsaPublicJwk # noqa: PLC0415
        public_jwk: dict[str, Any] | Unset
        if isinstance(self.public_jwk, Unset):
            public_jwk = UNSET
        elif isinstance(self.public_jwk, RsaPublicJwk):
            public_jwk = self.public_jwk.to_dict()
        elif isinstance(self.public_jwk, EcPublicJwk):
            public_jwk = self.public_jwk.to_dict()
        else:
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
        from ..models.ec_public_jwk import EcPublicJwk # noqa: PLC0415
        from ..models.jwks import Jwks # noqa: PLC0415
        from ..models.okp_public_jwk import OkpPublicJwk # noqa: PLC0415
        from ..models.rsa_public_jwk import RsaPublicJwk # noqa: PLC0415
        d = dict(src_dict)
        def _parse_public_jwk(data: object) -> EcPublicJwk | OkpPublicJwk | RsaPublicJwk | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_public_jwk_type_0 = RsaPublicJwk.from_dict(data)



                return componentsschemas_public_jwk_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_public_jwk_type_1 = EcPublicJwk.from_dict(data)



                return componentsschemas_public_jwk_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_public_jwk_type_2 = OkpPublicJwk.from_dict(data)



            return componentsschemas_public_jwk_type_2

        public_jwk = _parse_public_jwk(d.pop("publicJwk", UNSET))


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

