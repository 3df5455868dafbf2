from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_envelope import ErrorEnvelope
from ...models.internal_error_envelope import InternalErrorEnvelope
from ...models.readiness_envelope import ReadinessEnvelope
from ...models.readiness_unavailable_envelope import ReadinessUnavailableEnvelope
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(accept_language, Unset):
        headers["Accept-Language"] = accept_language

    if not isinstance(x_request_id, Unset):
        headers["X-Request-Id"] = x_request_id



    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/health/ready",
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorEnvelope | InternalErrorEnvelope | ReadinessEnvelope | ReadinessUnavailableEnvelope | None:
    if response.status_code == 200:
        response_200 = ReadinessEnvelope.from_dict(response.json())



        return response_200

    if response.status_code == 405:
        response_405 = ErrorEnvelope.from_dict(response.json())



        return response_405

    if response.status_code == 406:
        response_406 = ErrorEnvelope.from_dict(response.json())



        return response_406

    if response.status_code == 414:
        response_414 = ErrorEnvelope.from_dict(response.json())



        return response_414

    if response.status_code == 431:
        response_431 = ErrorEnvelope.from_dict(response.json())



        return response_431

    if response.status_code == 500:
        response_500 = InternalErrorEnvelope.from_dict(response.json())



        return response_500

    if response.status_code == 503:
        response_503 = ReadinessUnavailableEnvelope.from_dict(response.json())



        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorEnvelope | InternalErrorEnvelope | ReadinessEnvelope | ReadinessUnavailableEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> Response[ErrorEnvelope | InternalErrorEnvelope | ReadinessEnvelope | ReadinessUnavailableEnvelope]:
    """ Readiness

     No authentication. Whether this process can serve now: the database answers and commits a
    write (`databaseWrite`), and Redis answers when `TESSERA_REDIS_URL` is set (`redis` is
    present only then). Each check waits at most 3 seconds; 503 when any fails, `data` naming it.

    Args:
        accept_language (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | InternalErrorEnvelope | ReadinessEnvelope | ReadinessUnavailableEnvelope]
     """


    kwargs = _get_kwargs(
        accept_language=accept_language,
x_request_id=x_request_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient | Client,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> ErrorEnvelope | InternalErrorEnvelope | ReadinessEnvelope | ReadinessUnavailableEnvelope | None:
    """ Readiness

     No authentication. Whether this process can serve now: the database answers and commits a
    write (`databaseWrite`), and Redis answers when `TESSERA_REDIS_URL` is set (`redis` is
    present only then). Each check waits at most 3 seconds; 503 when any fails, `data` naming it.

    Args:
        accept_language (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | InternalErrorEnvelope | ReadinessEnvelope | ReadinessUnavailableEnvelope
     """


    return sync_detailed(
        client=client,
accept_language=accept_language,
x_request_id=x_request_id,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> Response[ErrorEnvelope | InternalErrorEnvelope | ReadinessEnvelope | ReadinessUnavailableEnvelope]:
    """ Readiness

     No authentication. Whether this process can serve now: the database answers and commits a
    write (`databaseWrite`), and Redis answers when `TESSERA_REDIS_URL` is set (`redis` is
    present only then). Each check waits at most 3 seconds; 503 when any fails, `data` naming it.

    Args:
        accept_language (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | InternalErrorEnvelope | ReadinessEnvelope | ReadinessUnavailableEnvelope]
     """


    kwargs = _get_kwargs(
        accept_language=accept_language,
x_request_id=x_request_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> ErrorEnvelope | InternalErrorEnvelope | ReadinessEnvelope | ReadinessUnavailableEnvelope | None:
    """ Readiness

     No authentication. Whether this process can serve now: the database answers and commits a
    write (`databaseWrite`), and Redis answers when `TESSERA_REDIS_URL` is set (`redis` is
    present only then). Each check waits at most 3 seconds; 503 when any fails, `data` naming it.

    Args:
        accept_language (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | InternalErrorEnvelope | ReadinessEnvelope | ReadinessUnavailableEnvelope
     """


    return (await asyncio_detailed(
        client=client,
accept_language=accept_language,
x_request_id=x_request_id,

    )).parsed
