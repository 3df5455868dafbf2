from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.assets_assign_request import AssetsAssignRequest
from ...models.assets_assign_result import AssetsAssignResult
from ...models.error import Error
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body: AssetsAssignRequest,
    if_match: str,
    idempotency_key: str,
    x_request_id: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["If-Match"] = if_match

    headers["Idempotency-Key"] = idempotency_key

    if not isinstance(x_request_id, Unset):
        headers["X-Request-Id"] = x_request_id



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/open/v1/commands/assets.assign:execute",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AssetsAssignResult | Error | None:
    if response.status_code == 200:
        response_200 = AssetsAssignResult.from_dict(response.json())



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

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())



        return response_409

    if response.status_code == 412:
        response_412 = Error.from_dict(response.json())



        return response_412

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())



        return response_413

    if response.status_code == 414:
        response_414 = Error.from_dict(response.json())



        return response_414

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[AssetsAssignResult | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: AssetsAssignRequest,
    if_match: str,
    idempotency_key: str,
    x_request_id: str | Unset = UNSET,

) -> Response[AssetsAssignResult | Error]:
    """ Assign an asset to a person or team

     Sets the asset's assignee and marks it `assigned`.

    Command `assets.assign` on `assets`; needs scope `assets.manage`. `If-Match` must carry the target's
    current ETag (412 `precondition_failed` otherwise). Send a
    fresh `Idempotency-Key` per intended change: a retry with the same key and body returns the
    original result with `idempotentReplay: true` and changes nothing. The change and its
    `assets.assignment.changed` webhook event are committed together.

    Args:
        if_match (str):
        idempotency_key (str):
        x_request_id (str | Unset):
        body (AssetsAssignRequest): Request body of `assets.assign`. Example: {'targetPid':
            'rec_0c4m8n2p6r0t4v8x2z6b0d4f8h', 'input': {'assignee': 'Dana Whitfield'}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AssetsAssignResult | Error]
     """


    kwargs = _get_kwargs(
        body=body,
if_match=if_match,
idempotency_key=idempotency_key,
x_request_id=x_request_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    body: AssetsAssignRequest,
    if_match: str,
    idempotency_key: str,
    x_request_id: str | Unset = UNSET,

) -> AssetsAssignResult | Error | None:
    """ Assign an asset to a person or team

     Sets the asset's assignee and marks it `assigned`.

    Command `assets.assign` on `assets`; needs scope `assets.manage`. `If-Match` must carry the target's
    current ETag (412 `precondition_failed` otherwise). Send a
    fresh `Idempotency-Key` per intended change: a retry with the same key and body returns the
    original result with `idempotentReplay: true` and changes nothing. The change and its
    `assets.assignment.changed` webhook event are committed together.

    Args:
        if_match (str):
        idempotency_key (str):
        x_request_id (str | Unset):
        body (AssetsAssignRequest): Request body of `assets.assign`. Example: {'targetPid':
            'rec_0c4m8n2p6r0t4v8x2z6b0d4f8h', 'input': {'assignee': 'Dana Whitfield'}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AssetsAssignResult | Error
     """


    return sync_detailed(
        client=client,
body=body,
if_match=if_match,
idempotency_key=idempotency_key,
x_request_id=x_request_id,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: AssetsAssignRequest,
    if_match: str,
    idempotency_key: str,
    x_request_id: str | Unset = UNSET,

) -> Response[AssetsAssignResult | Error]:
    """ Assign an asset to a person or team

     Sets the asset's assignee and marks it `assigned`.

    Command `assets.assign` on `assets`; needs scope `assets.manage`. `If-Match` must carry the target's
    current ETag (412 `precondition_failed` otherwise). Send a
    fresh `Idempotency-Key` per intended change: a retry with the same key and body returns the
    original result with `idempotentReplay: true` and changes nothing. The change and its
    `assets.assignment.changed` webhook event are committed together.

    Args:
        if_match (str):
        idempotency_key (str):
        x_request_id (str | Unset):
        body (AssetsAssignRequest): Request body of `assets.assign`. Example: {'targetPid':
            'rec_0c4m8n2p6r0t4v8x2z6b0d4f8h', 'input': {'assignee': 'Dana Whitfield'}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AssetsAssignResult | Error]
     """


    kwargs = _get_kwargs(
        body=body,
if_match=if_match,
idempotency_key=idempotency_key,
x_request_id=x_request_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    body: AssetsAssignRequest,
    if_match: str,
    idempotency_key: str,
    x_request_id: str | Unset = UNSET,

) -> AssetsAssignResult | Error | None:
    """ Assign an asset to a person or team

     Sets the asset's assignee and marks it `assigned`.

    Command `assets.assign` on `assets`; needs scope `assets.manage`. `If-Match` must carry the target's
    current ETag (412 `precondition_failed` otherwise). Send a
    fresh `Idempotency-Key` per intended change: a retry with the same key and body returns the
    original result with `idempotentReplay: true` and changes nothing. The change and its
    `assets.assignment.changed` webhook event are committed together.

    Args:
        if_match (str):
        idempotency_key (str):
        x_request_id (str | Unset):
        body (AssetsAssignRequest): Request body of `assets.assign`. Example: {'targetPid':
            'rec_0c4m8n2p6r0t4v8x2z6b0d4f8h', 'input': {'assignee': 'Dana Whitfield'}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AssetsAssignResult | Error
     """


    return (await asyncio_detailed(
        client=client,
body=body,
if_match=if_match,
idempotency_key=idempotency_key,
x_request_id=x_request_id,

    )).parsed
