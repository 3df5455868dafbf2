from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.revocation_request_client_assertion_type import RevocationRequestClientAssertionType
from ..types import UNSET, Unset






T = TypeVar("T", bound="RevocationRequest")



@_attrs_define
class RevocationRequest:
    """ RFC 7009 revocation request; client authentication as for `TokenRequest`.

        Attributes:
            token (str): The access token to revoke.
            token_type_hint (str | Unset): `access_token`, the only kind the service issues; any value is accepted and
                ignored.
            client_id (str | Unset):
            client_secret (str | Unset):
            client_assertion_type (RevocationRequestClientAssertionType | Unset):
            client_assertion (str | Unset): A JWT signed with the credential's private key (RS256, ES256 or EdDSA): `iss`
                and `sub` the client id, `aud` the token endpoint's URL (introspection and revocation also accept their own),
                `exp` at most 5 minutes ahead, and a `jti` never used before (each is accepted once). Never together with
                `client_secret`.
     """

    token: str
    token_type_hint: str | Unset = UNSET
    client_id: str | Unset = UNSET
    client_secret: str | Unset = UNSET
    client_assertion_type: RevocationRequestClientAssertionType | Unset = UNSET
    client_assertion: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        token = self.token

        token_type_hint = self.token_type_hint

        client_id = self.client_id

        client_secret = self.client_secret

        client_assertion_type: str | Unset = UNSET
        if not isinstance(self.client_assertion_type, Unset):
            client_assertion_type = self.client_assertion_type.value


        client_assertion = self.client_assertion


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "token": token,
        })
        if token_type_hint is not UNSET:
            field_dict["token_type_hint"] = token_type_hint
        if client_id is not UNSET:
            field_dict["client_id"] = client_id
        if client_secret is not UNSET:
            field_dict["client_secret"] = client_secret
        if client_assertion_type is not UNSET:
            field_dict["client_assertion_type"] = client_assertion_type
        if client_assertion is not UNSET:
            field_dict["client_assertion"] = client_assertion

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        token = d.pop("token")

        token_type_hint = d.pop("token_type_hint", UNSET)

        client_id = d.pop("client_id", UNSET)

        client_secret = d.pop("client_secret", UNSET)

        _client_assertion_type = d.pop("client_assertion_type", UNSET)
        client_assertion_type: RevocationRequestClientAssertionType | Unset
        if isinstance(_client_assertion_type,  Unset):
            client_assertion_type = UNSET
        else:
            client_assertion_type = RevocationRequestClientAssertionType(_client_assertion_type)




        client_assertion = d.pop("client_assertion", UNSET)

        revocation_request = cls(
            token=token,
            token_type_hint=token_type_hint,
            client_id=client_id,
            client_secret=client_secret,
            client_assertion_type=client_assertion_type,
            client_assertion=client_assertion,
        )


        revocation_request.additional_properties = d
        return revocation_request

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
