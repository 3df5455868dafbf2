from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.event_accepted import EventAccepted
from ...models.robot_fleet_event import RobotFleetEvent
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body: RobotFleetEvent,
    idempotency_key: str,
    x_request_id: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["Idempotency-Key"] = idempotency_key

    if not isinstance(x_request_id, Unset):
        headers["X-Request-Id"] = x_request_id



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/open/v1/event-sources/robot-fleet/events",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | EventAccepted | None:
    if response.status_code == 202:
        response_202 = EventAccepted.from_dict(response.json())



        return response_202

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())



        return response_403

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())



        return response_409

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | EventAccepted]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: RobotFleetEvent,
    idempotency_key: str,
    x_request_id: str | Unset = UNSET,

) -> Response[Error | EventAccepted]:
    """ Post an event from robot-fleet

     Events from warehouse robot fleets.

    The body is validated against the registry's schema for its `type` and `schemaVersion`
    (unknown type or version, a bad `data` or `occurredAt`: 400 `invalid_request` with every
    error in `details.fieldErrors`). `Idempotency-Key` is required and deduplicated per
    installation for good: a repeat with the same key and body answers 202 with the original
    event id and `duplicate: true`; with another body 409 `idempotency_key_conflict`. The
    event is stored and answered at once; the tenant's automations consume it afterwards,
    never inside this request. Needs scope `events.robot-fleet.publish`.

    Args:
        idempotency_key (str):
        x_request_id (str | Unset):
        body (RobotFleetEvent): An event posted by `robot-fleet`. Example: {'type':
            'inventory.received', 'schemaVersion': 1, 'occurredAt': '2026-11-22T08:00:00.000Z',
            'data': {'sku': 'SKU-4417-0032', 'quantity': 3, 'warehouse': 'north'}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | EventAccepted]
     """


    kwargs = _get_kwargs(
        body=body,
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
    body: RobotFleetEvent,
    idempotency_key: str,
    x_request_id: str | Unset = UNSET,

) -> Error | EventAccepted | None:
    """ Post an event from robot-fleet

     Events from warehouse robot fleets.

    The body is validated against the registry's schema for its `type` and `schemaVersion`
    (unknown type or version, a bad `data` or `occurredAt`: 400 `invalid_request` with every
    error in `details.fieldErrors`). `Idempotency-Key` is required and deduplicated per
    installation for good: a repeat with the same key and body answers 202 with the original
    event id and `duplicate: true`; with another body 409 `idempotency_key_conflict`. The
    event is stored and answered at once; the tenant's automations consume it afterwards,
    never inside this request. Needs scope `events.robot-fleet.publish`.

    Args:
        idempotency_key (str):
        x_request_id (str | Unset):
        body (RobotFleetEvent): An event posted by `robot-fleet`. Example: {'type':
            'inventory.received', 'schemaVersion': 1, 'occurredAt': '2026-11-22T08:00:00.000Z',
            'data': {'sku': 'SKU-4417-0032', 'quantity': 3, 'warehouse': 'north'}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | EventAccepted
     """


    return sync_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,
x_request_id=x_request_id,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: RobotFleetEvent,
    idempotency_key: str,
    x_request_id: str | Unset = UNSET,

) -> Response[Error | EventAccepted]:
    """ Post an event from robot-fleet

     Events from warehouse robot fleets.

    The body is validated against the registry's schema for its `type` and `schemaVersion`
    (unknown type or version, a bad `data` or `occurredAt`: 400 `invalid_request` with every
    error in `details.fieldErrors`). `Idempotency-Key` is required and deduplicated per
    installation for good: a repeat with the same key and body answers 202 with the original
    event id and `duplicate: true`; with another body 409 `idempotency_key_conflict`. The
    event is stored and answered at once; the tenant's automations consume it afterwards,
    never inside this request. Needs scope `events.robot-fleet.publish`.

    Args:
        idempotency_key (str):
        x_request_id (str | Unset):
        body (RobotFleetEvent): An event posted by `robot-fleet`. Example: {'type':
            'inventory.received', 'schemaVersion': 1, 'occurredAt': '2026-11-22T08:00:00.000Z',
            'data': {'sku': 'SKU-4417-0032', 'quantity': 3, 'warehouse': 'north'}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | EventAccepted]
     """


    kwargs = _get_kwargs(
        body=body,
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
    body: RobotFleetEvent,
    idempotency_key: str,
    x_request_id: str | Unset = UNSET,

) -> Error | EventAccepted | None:
    """ Post an event from robot-fleet

     Events from warehouse robot fleets.

    The body is validated against the registry's schema for its `type` and `schemaVersion`
    (unknown type or version, a bad `data` or `occurredAt`: 400 `invalid_request` with every
    error in `details.fieldErrors`). `Idempotency-Key` is required and deduplicated per
    installation for good: a repeat with the same key and body answers 202 with the original
    event id and `duplicate: true`; with another body 409 `idempotency_key_conflict`. The
    event is stored and answered at once; the tenant's automations consume it afterwards,
    never inside this request. Needs scope `events.robot-fleet.publish`.

    Args:
        idempotency_key (str):
        x_request_id (str | Unset):
        body (RobotFleetEvent): An event posted by `robot-fleet`. Example: {'type':
            'inventory.received', 'schemaVersion': 1, 'occurredAt': '2026-11-22T08:00:00.000Z',
            'data': {'sku': 'SKU-4417-0032', 'quantity': 3, 'warehouse': 'north'}}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | EventAccepted
     """


    return (await asyncio_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,
x_request_id=x_request_id,

    )).parsed
