from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.ec_public_jwk import EcPublicJwk
  from ..models.okp_public_jwk import OkpPublicJwk
  from ..models.rsa_public_jwk import RsaPublicJwk





T = TypeVar("T", bound="Jwks")



@_attrs_define
class Jwks:
    """ A JWK Set of 1 to 5 public keys. `keys` is its only member: the service stores the keys alone, so any other member
    (RFC 7517 section 5 allows them) is refused rather than dropped unseen.

        Example:
            {'keys': [{'kty': 'OKP', 'crv': 'Ed25519', 'kid': 'key-1', 'x': '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo'}]}

        Attributes:
            keys (list[EcPublicJwk | OkpPublicJwk | RsaPublicJwk]):
     """

    keys: list[EcPublicJwk | OkpPublicJwk | RsaPublicJwk]





    def to_dict(self) -> dict[str, Any]:
        from ..models.ec_public_jwk import EcPublicJwk # noqa: PLC0415
        from ..models.okp_public_jwk import OkpPublicJwk # noqa: PLC0415
        from ..models.rsa_public_jwk import RsaPublicJwk # noqa: PLC0415
        keys = []
        for keys_item_data in self.keys:
            keys_item: dict[str, Any]
            if isinstance(keys_item_data, RsaPublicJwk):
                keys_item = keys_item_data.to_dict()
            elif isinstance(keys_item_data, EcPublicJwk):
                keys_item = keys_item_data.to_dict()
            else:
                keys_item = keys_item_data.to_dict()

            keys.append(keys_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "keys": keys,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.ec_public_jwk import EcPublicJwk # noqa: PLC0415
        from ..models.okp_public_jwk import OkpPublicJwk # noqa: PLC0415
        from ..models.rsa_public_jwk import RsaPublicJwk # noqa: PLC0415
        d = dict(src_dict)
        keys = []
        _keys = d.pop("keys")
        for keys_item_data in (_keys):
            def _parse_keys_item(data: object) -> EcPublicJwk | OkpPublicJwk | RsaPublicJwk:
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

            keys_item = _parse_keys_item(keys_item_data)

            keys.append(keys_item)


        jwks = cls(
            keys=keys,
        )

        return jwks

