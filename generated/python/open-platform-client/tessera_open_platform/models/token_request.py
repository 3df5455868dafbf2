from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.token_request_client_assertion_type import TokenRequestClientAssertionType
from ..models.token_request_grant_type import TokenRequestGrantType
from ..types import UNSET, Unset






T = TypeVar("T", bound="TokenRequest")



@_attrs_define
class TokenRequest:
    """ 
        Attributes:
            grant_type (TokenRequestGrantType):
            client_id (str | Unset):
            client_secret (str | Unset):
            client_assertion_type (TokenRequestClientAssertionType | Unset):
            client_assertion (str | Unset): A JWT signed with the credential's private key (RS256, ES256 or EdDSA): `iss`
                and `sub` the client id, `aud` the token endpoint's URL (introspection and revocation also accept their own),
                `exp` at most 5 minutes ahead, and a `jti` never used before (each is accepted once). Never together with
                `client_secret`.
            scope (str | Unset): Space-separated subset of the granted scopes.
     """

    grant_type: TokenRequestGrantType
    client_id: str | Unset = UNSET
    client_secret: str | Unset = UNSET
    client_assertion_type: TokenRequestClientAssertionType | Unset = UNSET
    client_assertion: str | Unset = UNSET
    scope: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        grant_type = self.grant_type.value

        client_id = self.client_id

        client_secret = self.client_secret

        client_assertion_type: str | Unset = UNSET
        if not isinstance(self.client_assertion_type, Unset):
            client_assertion_type = self.client_assertion_type.value


        client_assertion = self.client_assertion

        scope = self.scope


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "grant_type": grant_type,
        })
        if client_id is not UNSET:
            field_dict["client_id"] = client_id
        if client_secret is not UNSET:
            field_dict["client_secret"] = client_secret
        if client_assertion_type is not UNSET:
            field_dict["client_assertion_type"] = client_assertion_type
        if client_assertion is not UNSET:
            field_dict["client_assertion"] = client_assertion
        if scope is not UNSET:
            field_dict["scope"] = scope

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        grant_type = TokenRequestGrantType(d.pop("grant_type"))




        client_id = d.pop("client_id", UNSET)

        client_secret = d.pop("client_secret", UNSET)

        _client_assertion_type = d.pop("client_assertion_type", UNSET)
        client_assertion_type: TokenRequestClientAssertionType | Unset
        if isinstance(_client_assertion_type,  Unset):
            client_assertion_type = UNSET
        else:
            client_assertion_type = TokenRequestClientAssertionType(_client_assertion_type)




        client_assertion = d.pop("client_assertion", UNSET)

        scope = d.pop("scope", UNSET)

        token_request = cls(
            grant_type=grant_type,
            client_id=client_id,
            client_secret=client_secret,
            client_assertion_type=client_assertion_type,
            client_assertion=client_assertion,
            scope=scope,
        )


        token_request.additional_properties = d
        return token_request

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
