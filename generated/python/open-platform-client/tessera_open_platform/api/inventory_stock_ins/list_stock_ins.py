from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.stock_in_page import StockInPage
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_request_id, Unset):
        headers["X-Request-Id"] = x_request_id



    

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["cursor"] = cursor


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/open/v1/resources/inventory.stock-ins",
        "params": params,
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | StockInPage | None:
    if response.status_code == 200:
        response_200 = StockInPage.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | StockInPage]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> Response[Error | StockInPage]:
    """ List inventory.stock-ins records, oldest first

     Goods received into a warehouse.

    Keyset pagination in creation order: pass `nextCursor` back as `cursor` until it is null.
    Walking every page visits each record that exists for the whole walk exactly once, however
    many records are created or deleted meanwhile. Needs scope `inventory.stockins.read`.

    Args:
        limit (int | Unset):  Default: 50.
        cursor (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | StockInPage]
     """


    kwargs = _get_kwargs(
        limit=limit,
cursor=cursor,
x_request_id=x_request_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> Error | StockInPage | None:
    """ List inventory.stock-ins records, oldest first

     Goods received into a warehouse.

    Keyset pagination in creation order: pass `nextCursor` back as `cursor` until it is null.
    Walking every page visits each record that exists for the whole walk exactly once, however
    many records are created or deleted meanwhile. Needs scope `inventory.stockins.read`.

    Args:
        limit (int | Unset):  Default: 50.
        cursor (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | StockInPage
     """


    return sync_detailed(
        client=client,
limit=limit,
cursor=cursor,
x_request_id=x_request_id,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> Response[Error | StockInPage]:
    """ List inventory.stock-ins records, oldest first

     Goods received into a warehouse.

    Keyset pagination in creation order: pass `nextCursor` back as `cursor` until it is null.
    Walking every page visits each record that exists for the whole walk exactly once, however
    many records are created or deleted meanwhile. Needs scope `inventory.stockins.read`.

    Args:
        limit (int | Unset):  Default: 50.
        cursor (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | StockInPage]
     """


    kwargs = _get_kwargs(
        limit=limit,
cursor=cursor,
x_request_id=x_request_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> Error | StockInPage | None:
    """ List inventory.stock-ins records, oldest first

     Goods received into a warehouse.

    Keyset pagination in creation order: pass `nextCursor` back as `cursor` until it is null.
    Walking every page visits each record that exists for the whole walk exactly once, however
    many records are created or deleted meanwhile. Needs scope `inventory.stockins.read`.

    Args:
        limit (int | Unset):  Default: 50.
        cursor (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | StockInPage
     """


    return (await asyncio_detailed(
        client=client,
limit=limit,
cursor=cursor,
x_request_id=x_request_id,

    )).parsed
