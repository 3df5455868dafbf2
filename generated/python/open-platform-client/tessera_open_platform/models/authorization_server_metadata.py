from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.authorization_server_metadata_grant_types_supported_item import AuthorizationServerMetadataGrantTypesSupportedItem
from ..models.authorization_server_metadata_token_endpoint_auth_signing_alg_values_supported_item import AuthorizationServerMetadataTokenEndpointAuthSigningAlgValuesSupportedItem
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="AuthorizationServerMetadata")



@_attrs_define
class AuthorizationServerMetadata:
    """ RFC 8414 authorization server metadata. Every URL is absolute.

        Attributes:
            issuer (str): The service's origin (`https://host[:port]`); the other URLs are under it.
            token_endpoint (str): `POST` client credentials here for a token.
            token_endpoint_auth_methods_supported (list[str]): How a client authenticates there.
            grant_types_supported (list[AuthorizationServerMetadataGrantTypesSupportedItem]):
            response_types_supported (list[str]): Empty; there is no authorization endpoint.
            scopes_supported (list[str]): Every scope an installation can be granted.
            introspection_endpoint (str): RFC 7662 introspection of the client's own tokens.
            introspection_endpoint_auth_methods_supported (list[str]):
            revocation_endpoint (str): RFC 7009 revocation of the client's own tokens.
            revocation_endpoint_auth_methods_supported (list[str]):
            token_endpoint_auth_signing_alg_values_supported
                (list[AuthorizationServerMetadataTokenEndpointAuthSigningAlgValuesSupportedItem] | Unset): The algorithms a
                `private_key_jwt` assertion may be signed with (also for introspection and revocation).
            service_documentation (str | Unset): The interactive reference of this document.
            ui_locales_supported (list[str] | Unset): Languages of messages (`Accept-Language`).
     """

    issuer: str
    token_endpoint: str
    token_endpoint_auth_methods_supported: list[str]
    grant_types_supported: list[AuthorizationServerMetadataGrantTypesSupportedItem]
    response_types_supported: list[str]
    scopes_supported: list[str]
    introspection_endpoint: str
    introspection_endpoint_auth_methods_supported: list[str]
    revocation_endpoint: str
    revocation_endpoint_auth_methods_supported: list[str]
    token_endpoint_auth_signing_alg_values_supported: list[AuthorizationServerMetadataTokenEndpointAuthSigningAlgValuesSupportedItem] | Unset = UNSET
    service_documentation: str | Unset = UNSET
    ui_locales_supported: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        issuer = self.issuer

        token_endpoint = self.token_endpoint

        token_endpoint_auth_methods_supported = self.token_endpoint_auth_methods_supported



        grant_types_supported = []
        for grant_types_supported_item_data in self.grant_types_supported:
            grant_types_supported_item = grant_types_supported_item_data.value
            grant_types_supported.append(grant_types_supported_item)



        response_types_supported = self.response_types_supported



        scopes_supported = self.scopes_supported



        introspection_endpoint = self.introspection_endpoint

        introspection_endpoint_auth_methods_supported = self.introspection_endpoint_auth_methods_supported



        revocation_endpoint = self.revocation_endpoint

        revocation_endpoint_auth_methods_supported = self.revocation_endpoint_auth_methods_supported



        token_endpoint_auth_signing_alg_values_supported: list[str] | Unset = UNSET
        if not isinstance(self.token_endpoint_auth_signing_alg_values_supported, Unset):
            token_endpoint_auth_signing_alg_values_supported = []
            for token_endpoint_auth_signing_alg_values_supported_item_data in self.token_endpoint_auth_signing_alg_values_supported:
                token_endpoint_auth_signing_alg_values_supported_item = token_endpoint_auth_signing_alg_values_supported_item_data.value
                token_endpoint_auth_signing_alg_values_supported.append(token_endpoint_auth_signing_alg_values_supported_item)



        service_documentation = self.service_documentation

        ui_locales_supported: list[str] | Unset = UNSET
        if not isinstance(self.ui_locales_supported, Unset):
            ui_locales_supported = self.ui_locales_supported




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "issuer": issuer,
            "token_endpoint": token_endpoint,
            "token_endpoint_auth_methods_supported": token_endpoint_auth_methods_supported,
            "grant_types_supported": grant_types_supported,
            "response_types_supported": response_types_supported,
            "scopes_supported": scopes_supported,
            "introspection_endpoint": introspection_endpoint,
            "introspection_endpoint_auth_methods_supported": introspection_endpoint_auth_methods_supported,
            "revocation_endpoint": revocation_endpoint,
            "revocation_endpoint_auth_methods_supported": revocation_endpoint_auth_methods_supported,
        })
        if token_endpoint_auth_signing_alg_values_supported is not UNSET:
            field_dict["token_endpoint_auth_signing_alg_values_supported"] = token_endpoint_auth_signing_alg_values_supported
        if service_documentation is not UNSET:
            field_dict["service_documentation"] = service_documentation
        if ui_locales_supported is not UNSET:
            field_dict["ui_locales_supported"] = ui_locales_supported

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        issuer = d.pop("issuer")

        token_endpoint = d.pop("token_endpoint")

        token_endpoint_auth_methods_supported = cast(list[str], d.pop("token_endpoint_auth_methods_supported"))


        grant_types_supported = []
        _grant_types_supported = d.pop("grant_types_supported")
        for grant_types_supported_item_data in (_grant_types_supported):
            grant_types_supported_item = AuthorizationServerMetadataGrantTypesSupportedItem(grant_types_supported_item_data)



            grant_types_supported.append(grant_types_supported_item)


        response_types_supported = cast(list[str], d.pop("response_types_supported"))


        scopes_supported = cast(list[str], d.pop("scopes_supported"))


        introspection_endpoint = d.pop("introspection_endpoint")

        introspection_endpoint_auth_methods_supported = cast(list[str], d.pop("introspection_endpoint_auth_methods_supported"))


        revocation_endpoint = d.pop("revocation_endpoint")

        revocation_endpoint_auth_methods_supported = cast(list[str], d.pop("revocation_endpoint_auth_methods_supported"))


        _token_endpoint_auth_signing_alg_values_supported = d.pop("token_endpoint_auth_signing_alg_values_supported", UNSET)
        token_endpoint_auth_signing_alg_values_supported: list[AuthorizationServerMetadataTokenEndpointAuthSigningAlgValuesSupportedItem] | Unset = UNSET
        if _token_endpoint_auth_signing_alg_values_supported is not UNSET:
            token_endpoint_auth_signing_alg_values_supported = []
            for token_endpoint_auth_signing_alg_values_supported_item_data in _token_endpoint_auth_signing_alg_values_supported:
                token_endpoint_auth_signing_alg_values_supported_item = AuthorizationServerMetadataTokenEndpointAuthSigningAlgValuesSupportedItem(token_endpoint_auth_signing_alg_values_supported_item_data)



                token_endpoint_auth_signing_alg_values_supported.append(token_endpoint_auth_signing_alg_values_supported_item)


        service_documentation = d.pop("service_documentation", UNSET)

        ui_locales_supported = cast(list[str], d.pop("ui_locales_supported", UNSET))


        authorization_server_metadata = cls(
            issuer=issuer,
            token_endpoint=token_endpoint,
            token_endpoint_auth_methods_supported=token_endpoint_auth_methods_supported,
            grant_types_supported=grant_types_supported,
            response_types_supported=response_types_supported,
            scopes_supported=scopes_supported,
            introspection_endpoint=introspection_endpoint,
            introspection_endpoint_auth_methods_supported=introspection_endpoint_auth_methods_supported,
            revocation_endpoint=revocation_endpoint,
            revocation_endpoint_auth_methods_supported=revocation_endpoint_auth_methods_supported,
            token_endpoint_auth_signing_alg_values_supported=token_endpoint_auth_signing_alg_values_supported,
            service_documentation=service_documentation,
            ui_locales_supported=ui_locales_supported,
        )


        authorization_server_metadata.additional_properties = d
        return authorization_server_metadata

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
