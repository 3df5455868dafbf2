from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.asset import Asset
from ...models.error import Error
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    pid: str,
    *,
    x_request_id: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_request_id, Unset):
        headers["X-Request-Id"] = x_request_id



    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/open/v1/resources/assets/{pid}".format(pid=quote(str(pid), safe=""),),
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Asset | Error | None:
    if response.status_code == 200:
        response_200 = Asset.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())



        return response_404

    if response.status_code == 414:
        response_414 = Error.from_dict(response.json())



        return response_414

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Asset | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    pid: str,
    *,
    client: AuthenticatedClient,
    x_request_id: str | Unset = UNSET,

) -> Response[Asset | Error]:
    """ Read one assets record

     The record and its strong `ETag`; send the ETag as `If-Match` to change the record. A pid
    that does not exist in the token's tenant answers 404 `resource_not_found`. Needs scope
    `assets.read`.

    Args:
        pid (str):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Asset | Error]
     """


    kwargs = _get_kwargs(
        pid=pid,
x_request_id=x_request_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    pid: str,
    *,
    client: AuthenticatedClient,
    x_request_id: str | Unset = UNSET,

) -> Asset | Error | None:
    """ Read one assets record

     The record and its strong `ETag`; send the ETag as `If-Match` to change the record. A pid
    that does not exist in the token's tenant answers 404 `resource_not_found`. Needs scope
    `assets.read`.

    Args:
        pid (str):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Asset | Error
     """


    return sync_detailed(
        pid=pid,
client=client,
x_request_id=x_request_id,

    ).parsed

async def asyncio_detailed(
    pid: str,
    *,
    client: AuthenticatedClient,
    x_request_id: str | Unset = UNSET,

) -> Response[Asset | Error]:
    """ Read one assets record

     The record and its strong `ETag`; send the ETag as `If-Match` to change the record. A pid
    that does not exist in the token's tenant answers 404 `resource_not_found`. Needs scope
    `assets.read`.

    Args:
        pid (str):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Asset | Error]
     """


    kwargs = _get_kwargs(
        pid=pid,
x_request_id=x_request_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    pid: str,
    *,
    client: AuthenticatedClient,
    x_request_id: str | Unset = UNSET,

) -> Asset | Error | None:
    """ Read one assets record

     The record and its strong `ETag`; send the ETag as `If-Match` to change the record. A pid
    that does not exist in the token's tenant answers 404 `resource_not_found`. Needs scope
    `assets.read`.

    Args:
        pid (str):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Asset | Error
     """


    return (await asyncio_detailed(
        pid=pid,
client=client,
x_request_id=x_request_id,

    )).parsed
