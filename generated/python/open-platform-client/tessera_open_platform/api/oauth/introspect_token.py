from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.introspection_request import IntrospectionRequest
from ...models.introspection_response import IntrospectionResponse
from ...models.o_auth_error import OAuthError
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body: IntrospectionRequest,
    x_request_id: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_request_id, Unset):
        headers["X-Request-Id"] = x_request_id



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/oauth2/introspect",
    }

    _kwargs["data"] = body.to_dict()
    headers["Content-Type"] = "application/x-www-form-urlencoded"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | IntrospectionResponse | OAuthError | None:
    if response.status_code == 200:
        response_200 = IntrospectionResponse.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = OAuthError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = OAuthError.from_dict(response.json())



        return response_401

    if response.status_code == 405:
        response_405 = OAuthError.from_dict(response.json())



        return response_405

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())



        return response_413

    if response.status_code == 414:
        response_414 = Error.from_dict(response.json())



        return response_414

    if response.status_code == 415:
        response_415 = OAuthError.from_dict(response.json())



        return response_415

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())



        return response_429

    if response.status_code == 431:
        response_431 = Error.from_dict(response.json())



        return response_431

    if response.status_code == 500:
        response_500 = Error.from_dict(response.json())



        return response_500

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())



        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | IntrospectionResponse | OAuthError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: IntrospectionRequest,
    x_request_id: str | Unset = UNSET,

) -> Response[Error | IntrospectionResponse | OAuthError]:
    """ Introspect one of the application's own access tokens (RFC 7662)

     RFC 7662 token introspection. The client authenticates exactly as at the token endpoint
    (`client_id` and `client_secret` in the form body, or HTTP Basic; not both; a form
    `client_id` beside Basic must name the same client), and may
    introspect only tokens of its own installation, whichever of the installation's credentials
    minted them. A live one answers `active: true` with its scopes (at most the installation's
    current grant), client id, expiry and issue time. Every other token (unknown, expired,
    revoked, of a revoked credential or a disabled installation, or another installation's)
    answers just `{"active": false}`, so the answer never tells whether a token exists elsewhere.
    `token_type_hint` is optional and ignored: the service issues access tokens only. Counts
    against the client's token-request rate limit (429 `rate_limit_exceeded` with `Retry-After`).

    Args:
        x_request_id (str | Unset):
        body (IntrospectionRequest): RFC 7662 introspection request; client authentication as for
            `TokenRequest`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | IntrospectionResponse | OAuthError]
     """


    kwargs = _get_kwargs(
        body=body,
x_request_id=x_request_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    body: IntrospectionRequest,
    x_request_id: str | Unset = UNSET,

) -> Error | IntrospectionResponse | OAuthError | None:
    """ Introspect one of the application's own access tokens (RFC 7662)

     RFC 7662 token introspection. The client authenticates exactly as at the token endpoint
    (`client_id` and `client_secret` in the form body, or HTTP Basic; not both; a form
    `client_id` beside Basic must name the same client), and may
    introspect only tokens of its own installation, whichever of the installation's credentials
    minted them. A live one answers `active: true` with its scopes (at most the installation's
    current grant), client id, expiry and issue time. Every other token (unknown, expired,
    revoked, of a revoked credential or a disabled installation, or another installation's)
    answers just `{"active": false}`, so the answer never tells whether a token exists elsewhere.
    `token_type_hint` is optional and ignored: the service issues access tokens only. Counts
    against the client's token-request rate limit (429 `rate_limit_exceeded` with `Retry-After`).

    Args:
        x_request_id (str | Unset):
        body (IntrospectionRequest): RFC 7662 introspection request; client authentication as for
            `TokenRequest`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | IntrospectionResponse | OAuthError
     """


    return sync_detailed(
        client=client,
body=body,
x_request_id=x_request_id,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: IntrospectionRequest,
    x_request_id: str | Unset = UNSET,

) -> Response[Error | IntrospectionResponse | OAuthError]:
    """ Introspect one of the application's own access tokens (RFC 7662)

     RFC 7662 token introspection. The client authenticates exactly as at the token endpoint
    (`client_id` and `client_secret` in the form body, or HTTP Basic; not both; a form
    `client_id` beside Basic must name the same client), and may
    introspect only tokens of its own installation, whichever of the installation's credentials
    minted them. A live one answers `active: true` with its scopes (at most the installation's
    current grant), client id, expiry and issue time. Every other token (unknown, expired,
    revoked, of a revoked credential or a disabled installation, or another installation's)
    answers just `{"active": false}`, so the answer never tells whether a token exists elsewhere.
    `token_type_hint` is optional and ignored: the service issues access tokens only. Counts
    against the client's token-request rate limit (429 `rate_limit_exceeded` with `Retry-After`).

    Args:
        x_request_id (str | Unset):
        body (IntrospectionRequest): RFC 7662 introspection request; client authentication as for
            `TokenRequest`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | IntrospectionResponse | OAuthError]
     """


    kwargs = _get_kwargs(
        body=body,
x_request_id=x_request_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    body: IntrospectionRequest,
    x_request_id: str | Unset = UNSET,

) -> Error | IntrospectionResponse | OAuthError | None:
    """ Introspect one of the application's own access tokens (RFC 7662)

     RFC 7662 token introspection. The client authenticates exactly as at the token endpoint
    (`client_id` and `client_secret` in the form body, or HTTP Basic; not both; a form
    `client_id` beside Basic must name the same client), and may
    introspect only tokens of its own installation, whichever of the installation's credentials
    minted them. A live one answers `active: true` with its scopes (at most the installation's
    current grant), client id, expiry and issue time. Every other token (unknown, expired,
    revoked, of a revoked credential or a disabled installation, or another installation's)
    answers just `{"active": false}`, so the answer never tells whether a token exists elsewhere.
    `token_type_hint` is optional and ignored: the service issues access tokens only. Counts
    against the client's token-request rate limit (429 `rate_limit_exceeded` with `Retry-After`).

    Args:
        x_request_id (str | Unset):
        body (IntrospectionRequest): RFC 7662 introspection request; client authentication as for
            `TokenRequest`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | IntrospectionResponse | OAuthError
     """


    return (await asyncio_detailed(
        client=client,
body=body,
x_request_id=x_request_id,

    )).parsed
