from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.authorization_server_metadata import AuthorizationServerMetadata
from ...models.error import Error
from ...models.o_auth_error import OAuthError
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    x_request_id: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_request_id, Unset):
        headers["X-Request-Id"] = x_request_id



    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/.well-known/oauth-authorization-server",
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AuthorizationServerMetadata | Error | OAuthError | None:
    if response.status_code == 200:
        response_200 = AuthorizationServerMetadata.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = OAuthError.from_dict(response.json())



        return response_400

    if response.status_code == 405:
        response_405 = OAuthError.from_dict(response.json())



        return response_405

    if response.status_code == 414:
        response_414 = Error.from_dict(response.json())



        return response_414

    if response.status_code == 431:
        response_431 = Error.from_dict(response.json())



        return response_431

    if response.status_code == 500:
        response_500 = Error.from_dict(response.json())



        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[AuthorizationServerMetadata | Error | OAuthError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    x_request_id: str | Unset = UNSET,

) -> Response[AuthorizationServerMetadata | Error | OAuthError]:
    """ OAuth 2.0 authorization server metadata (RFC 8414)

     Where a stock OAuth client finds the endpoints (discovery, e.g. `openid-client`'s
    `discovery()` with `algorithm: "oauth2"`, or Authlib's `AuthorizationServerMetadata`): the
    issuer; the token, introspection and revocation endpoints as absolute URLs; the grant type;
    the client authentication methods each endpoint accepts; and every scope an installation
    can be granted. The issuer is the service's `TESSERA_PUBLIC_URL` when it is configured, else
    the scheme and `Host` the request came with (behind a proxy that rewrites `Host`, configure
    it). There is no authorization endpoint (the only grant is client credentials), so
    `response_types_supported` is empty. No authentication; cacheable for an hour.

    Args:
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuthorizationServerMetadata | Error | OAuthError]
     """


    kwargs = _get_kwargs(
        x_request_id=x_request_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient | Client,
    x_request_id: str | Unset = UNSET,

) -> AuthorizationServerMetadata | Error | OAuthError | None:
    """ OAuth 2.0 authorization server metadata (RFC 8414)

     Where a stock OAuth client finds the endpoints (discovery, e.g. `openid-client`'s
    `discovery()` with `algorithm: "oauth2"`, or Authlib's `AuthorizationServerMetadata`): the
    issuer; the token, introspection and revocation endpoints as absolute URLs; the grant type;
    the client authentication methods each endpoint accepts; and every scope an installation
    can be granted. The issuer is the service's `TESSERA_PUBLIC_URL` when it is configured, else
    the scheme and `Host` the request came with (behind a proxy that rewrites `Host`, configure
    it). There is no authorization endpoint (the only grant is client credentials), so
    `response_types_supported` is empty. No authentication; cacheable for an hour.

    Args:
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuthorizationServerMetadata | Error | OAuthError
     """


    return sync_detailed(
        client=client,
x_request_id=x_request_id,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    x_request_id: str | Unset = UNSET,

) -> Response[AuthorizationServerMetadata | Error | OAuthError]:
    """ OAuth 2.0 authorization server metadata (RFC 8414)

     Where a stock OAuth client finds the endpoints (discovery, e.g. `openid-client`'s
    `discovery()` with `algorithm: "oauth2"`, or Authlib's `AuthorizationServerMetadata`): the
    issuer; the token, introspection and revocation endpoints as absolute URLs; the grant type;
    the client authentication methods each endpoint accepts; and every scope an installation
    can be granted. The issuer is the service's `TESSERA_PUBLIC_URL` when it is configured, else
    the scheme and `Host` the request came with (behind a proxy that rewrites `Host`, configure
    it). There is no authorization endpoint (the only grant is client credentials), so
    `response_types_supported` is empty. No authentication; cacheable for an hour.

    Args:
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuthorizationServerMetadata | Error | OAuthError]
     """


    kwargs = _get_kwargs(
        x_request_id=x_request_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    x_request_id: str | Unset = UNSET,

) -> AuthorizationServerMetadata | Error | OAuthError | None:
    """ OAuth 2.0 authorization server metadata (RFC 8414)

     Where a stock OAuth client finds the endpoints (discovery, e.g. `openid-client`'s
    `discovery()` with `algorithm: "oauth2"`, or Authlib's `AuthorizationServerMetadata`): the
    issuer; the token, introspection and revocation endpoints as absolute URLs; the grant type;
    the client authentication methods each endpoint accepts; and every scope an installation
    can be granted. The issuer is the service's `TESSERA_PUBLIC_URL` when it is configured, else
    the scheme and `Host` the request came with (behind a proxy that rewrites `Host`, configure
    it). There is no authorization endpoint (the only grant is client credentials), so
    `response_types_supported` is empty. No authentication; cacheable for an hour.

    Args:
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuthorizationServerMetadata | Error | OAuthError
     """


    return (await asyncio_detailed(
        client=client,
x_request_id=x_request_id,

    )).parsed
