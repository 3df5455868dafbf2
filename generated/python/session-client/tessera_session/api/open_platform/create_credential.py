from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.create_credential_request import CreateCredentialRequest
from ...models.credential_envelope import CredentialEnvelope
from ...models.error_envelope import ErrorEnvelope
from ...models.forbidden_envelope import ForbiddenEnvelope
from ...models.internal_error_envelope import InternalErrorEnvelope
from ...models.validation_error_envelope import ValidationErrorEnvelope
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    installation_id: str,
    *,
    body: CreateCredentialRequest | Unset = UNSET,
    x_tenant_id: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_tenant_id, Unset):
        headers["X-Tenant-Id"] = x_tenant_id

    if not isinstance(accept_language, Unset):
        headers["Accept-Language"] = accept_language

    if not isinstance(x_request_id, Unset):
        headers["X-Request-Id"] = x_request_id



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/open-platform/installations/{installation_id}/credentials".format(installation_id=quote(str(installation_id), safe=""),),
    }

    
    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> CredentialEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope | None:
    if response.status_code == 200:
        response_200 = CredentialEnvelope.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = ValidationErrorEnvelope.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ErrorEnvelope.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = ForbiddenEnvelope.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = ErrorEnvelope.from_dict(response.json())



        return response_404

    if response.status_code == 405:
        response_405 = ErrorEnvelope.from_dict(response.json())



        return response_405

    if response.status_code == 406:
        response_406 = ErrorEnvelope.from_dict(response.json())



        return response_406

    if response.status_code == 414:
        response_414 = ErrorEnvelope.from_dict(response.json())



        return response_414

    if response.status_code == 429:
        response_429 = ErrorEnvelope.from_dict(response.json())



        return response_429

    if response.status_code == 431:
        response_431 = ErrorEnvelope.from_dict(response.json())



        return response_431

    if response.status_code == 500:
        response_500 = InternalErrorEnvelope.from_dict(response.json())



        return response_500

    if response.status_code == 503:
        response_503 = ErrorEnvelope.from_dict(response.json())



        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[CredentialEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    installation_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: CreateCredentialRequest | Unset = UNSET,
    x_tenant_id: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> Response[CredentialEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope]:
    """ Create a client credential

     Issues a new credential for the installation (an installation may have several).
    Without a body (or with `{}`), a `secret` credential: a `clientId` / `clientSecret` pair.
    **The secret is shown exactly once**, in this response, which carries
    `Cache-Control: no-store`; only a keyed digest is stored and it is never audited.
    With `publicJwk` (one public JWK) or `jwks` (a JWK Set of 1 to 5 keys), a secretless
    `private_key_jwt` credential (RFC 7523): its client signs a client assertion with the
    private key instead of sending a secret (see the Open Platform document's token
    endpoint). Accepted keys: RSA of 2048 bits or more (RS256), EC P-256 (ES256), Ed25519
    (EdDSA); public members only: a JWK with `d` or another private member is refused with
    400 `VALIDATION_ERROR`, as is any other key type, an `alg` that does not fit the key or a
    `use` other than `sig`. `kid` is optional.
    Only an `owner` of the installation's application may do it: an unknown installation or
    a non-member gets 404 `NOT_FOUND`, a maintainer or viewer 403 `FORBIDDEN` with
    `data.permission` `application:owner`. Audited as `credential.create` (with its kind).

    Args:
        installation_id (str):
        x_tenant_id (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):
        body (CreateCredentialRequest | Unset): Empty for a `secret` credential; `publicJwk` or
            `jwks` (not both) for a `private_key_jwt` credential. Example: {'publicJwk': {'kty':
            'OKP', 'crv': 'Ed25519', 'kid': 'key-1', 'x':
            '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo'}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CredentialEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope]
     """


    kwargs = _get_kwargs(
        installation_id=installation_id,
body=body,
x_tenant_id=x_tenant_id,
accept_language=accept_language,
x_request_id=x_request_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    installation_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: CreateCredentialRequest | Unset = UNSET,
    x_tenant_id: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> CredentialEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope | None:
    """ Create a client credential

     Issues a new credential for the installation (an installation may have several).
    Without a body (or with `{}`), a `secret` credential: a `clientId` / `clientSecret` pair.
    **The secret is shown exactly once**, in this response, which carries
    `Cache-Control: no-store`; only a keyed digest is stored and it is never audited.
    With `publicJwk` (one public JWK) or `jwks` (a JWK Set of 1 to 5 keys), a secretless
    `private_key_jwt` credential (RFC 7523): its client signs a client assertion with the
    private key instead of sending a secret (see the Open Platform document's token
    endpoint). Accepted keys: RSA of 2048 bits or more (RS256), EC P-256 (ES256), Ed25519
    (EdDSA); public members only: a JWK with `d` or another private member is refused with
    400 `VALIDATION_ERROR`, as is any other key type, an `alg` that does not fit the key or a
    `use` other than `sig`. `kid` is optional.
    Only an `owner` of the installation's application may do it: an unknown installation or
    a non-member gets 404 `NOT_FOUND`, a maintainer or viewer 403 `FORBIDDEN` with
    `data.permission` `application:owner`. Audited as `credential.create` (with its kind).

    Args:
        installation_id (str):
        x_tenant_id (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):
        body (CreateCredentialRequest | Unset): Empty for a `secret` credential; `publicJwk` or
            `jwks` (not both) for a `private_key_jwt` credential. Example: {'publicJwk': {'kty':
            'OKP', 'crv': 'Ed25519', 'kid': 'key-1', 'x':
            '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo'}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CredentialEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope
     """


    return sync_detailed(
        installation_id=installation_id,
client=client,
body=body,
x_tenant_id=x_tenant_id,
accept_language=accept_language,
x_request_id=x_request_id,

    ).parsed

async def asyncio_detailed(
    installation_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: CreateCredentialRequest | Unset = UNSET,
    x_tenant_id: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> Response[CredentialEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope]:
    """ Create a client credential

     Issues a new credential for the installation (an installation may have several).
    Without a body (or with `{}`), a `secret` credential: a `clientId` / `clientSecret` pair.
    **The secret is shown exactly once**, in this response, which carries
    `Cache-Control: no-store`; only a keyed digest is stored and it is never audited.
    With `publicJwk` (one public JWK) or `jwks` (a JWK Set of 1 to 5 keys), a secretless
    `private_key_jwt` credential (RFC 7523): its client signs a client assertion with the
    private key instead of sending a secret (see the Open Platform document's token
    endpoint). Accepted keys: RSA of 2048 bits or more (RS256), EC P-256 (ES256), Ed25519
    (EdDSA); public members only: a JWK with `d` or another private member is refused with
    400 `VALIDATION_ERROR`, as is any other key type, an `alg` that does not fit the key or a
    `use` other than `sig`. `kid` is optional.
    Only an `owner` of the installation's application may do it: an unknown installation or
    a non-member gets 404 `NOT_FOUND`, a maintainer or viewer 403 `FORBIDDEN` with
    `data.permission` `application:owner`. Audited as `credential.create` (with its kind).

    Args:
        installation_id (str):
        x_tenant_id (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):
        body (CreateCredentialRequest | Unset): Empty for a `secret` credential; `publicJwk` or
            `jwks` (not both) for a `private_key_jwt` credential. Example: {'publicJwk': {'kty':
            'OKP', 'crv': 'Ed25519', 'kid': 'key-1', 'x':
            '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo'}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CredentialEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope]
     """


    kwargs = _get_kwargs(
        installation_id=installation_id,
body=body,
x_tenant_id=x_tenant_id,
accept_language=accept_language,
x_request_id=x_request_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    installation_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: CreateCredentialRequest | Unset = UNSET,
    x_tenant_id: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> CredentialEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope | None:
    """ Create a client credential

     Issues a new credential for the installation (an installation may have several).
    Without a body (or with `{}`), a `secret` credential: a `clientId` / `clientSecret` pair.
    **The secret is shown exactly once**, in this response, which carries
    `Cache-Control: no-store`; only a keyed digest is stored and it is never audited.
    With `publicJwk` (one public JWK) or `jwks` (a JWK Set of 1 to 5 keys), a secretless
    `private_key_jwt` credential (RFC 7523): its client signs a client assertion with the
    private key instead of sending a secret (see the Open Platform document's token
    endpoint). Accepted keys: RSA of 2048 bits or more (RS256), EC P-256 (ES256), Ed25519
    (EdDSA); public members only: a JWK with `d` or another private member is refused with
    400 `VALIDATION_ERROR`, as is any other key type, an `alg` that does not fit the key or a
    `use` other than `sig`. `kid` is optional.
    Only an `owner` of the installation's application may do it: an unknown installation or
    a non-member gets 404 `NOT_FOUND`, a maintainer or viewer 403 `FORBIDDEN` with
    `data.permission` `application:owner`. Audited as `credential.create` (with its kind).

    Args:
        installation_id (str):
        x_tenant_id (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):
        body (CreateCredentialRequest | Unset): Empty for a `secret` credential; `publicJwk` or
            `jwks` (not both) for a `private_key_jwt` credential. Example: {'publicJwk': {'kty':
            'OKP', 'crv': 'Ed25519', 'kid': 'key-1', 'x':
            '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo'}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CredentialEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope
     """


    return (await asyncio_detailed(
        installation_id=installation_id,
client=client,
body=body,
x_tenant_id=x_tenant_id,
accept_language=accept_language,
x_request_id=x_request_id,

    )).parsed
