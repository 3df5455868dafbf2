from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.o_auth_error import OAuthError
from ...models.token_request import TokenRequest
from ...models.token_response import TokenResponse
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body: TokenRequest,
    x_request_id: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_request_id, Unset):
        headers["X-Request-Id"] = x_request_id



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/oauth2/token",
    }

    _kwargs["data"] = body.to_dict()
    headers["Content-Type"] = "application/x-www-form-urlencoded"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | OAuthError | TokenResponse | None:
    if response.status_code == 200:
        response_200 = TokenResponse.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | OAuthError | TokenResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: TokenRequest,
    x_request_id: str | Unset = UNSET,

) -> Response[Error | OAuthError | TokenResponse]:
    """ Exchange client credentials for an access token

     RFC 6749 client credentials grant. Authenticate the client either with `client_id` and
    `client_secret` in the form body or with HTTP Basic (`Authorization: Basic
    base64(client_id:client_secret)`), not both. `scope` is an optional space-separated subset
    of the installation's granted scopes; omitted, the token gets all of them. Rate-limited per
    client (429 `rate_limit_exceeded` with `Retry-After`) and audited.

    Args:
        x_request_id (str | Unset):
        body (TokenRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | OAuthError | TokenResponse]
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
    body: TokenRequest,
    x_request_id: str | Unset = UNSET,

) -> Error | OAuthError | TokenResponse | None:
    """ Exchange client credentials for an access token

     RFC 6749 client credentials grant. Authenticate the client either with `client_id` and
    `client_secret` in the form body or with HTTP Basic (`Authorization: Basic
    base64(client_id:client_secret)`), not both. `scope` is an optional space-separated subset
    of the installation's granted scopes; omitted, the token gets all of them. Rate-limited per
    client (429 `rate_limit_exceeded` with `Retry-After`) and audited.

    Args:
        x_request_id (str | Unset):
        body (TokenRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | OAuthError | TokenResponse
     """


    return sync_detailed(
        client=client,
body=body,
x_request_id=x_request_id,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: TokenRequest,
    x_request_id: str | Unset = UNSET,

) -> Response[Error | OAuthError | TokenResponse]:
    """ Exchange client credentials for an access token

     RFC 6749 client credentials grant. Authenticate the client either with `client_id` and
    `client_secret` in the form body or with HTTP Basic (`Authorization: Basic
    base64(client_id:client_secret)`), not both. `scope` is an optional space-separated subset
    of the installation's granted scopes; omitted, the token gets all of them. Rate-limited per
    client (429 `rate_limit_exceeded` with `Retry-After`) and audited.

    Args:
        x_request_id (str | Unset):
        body (TokenRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | OAuthError | TokenResponse]
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
    body: TokenRequest,
    x_request_id: str | Unset = UNSET,

) -> Error | OAuthError | TokenResponse | None:
    """ Exchange client credentials for an access token

     RFC 6749 client credentials grant. Authenticate the client either with `client_id` and
    `client_secret` in the form body or with HTTP Basic (`Authorization: Basic
    base64(client_id:client_secret)`), not both. `scope` is an optional space-separated subset
    of the installation's granted scopes; omitted, the token gets all of them. Rate-limited per
    client (429 `rate_limit_exceeded` with `Retry-After`) and audited.

    Args:
        x_request_id (str | Unset):
        body (TokenRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | OAuthError | TokenResponse
     """


    return (await asyncio_detailed(
        client=client,
body=body,
x_request_id=x_request_id,

    )).parsed
