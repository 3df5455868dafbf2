from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.assets_assignment_changed_event import AssetsAssignmentChangedEvent
from ...models.credential_expiry_approaching_event import CredentialExpiryApproachingEvent
from ...models.credential_rotation_due_event import CredentialRotationDueEvent
from ...models.error import Error
from ...models.inventory_stock_in_created_event import InventoryStockInCreatedEvent
from ...models.webhook_endpoint_disabled_event import WebhookEndpointDisabledEvent
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    event_id: str,
    *,
    x_request_id: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_request_id, Unset):
        headers["X-Request-Id"] = x_request_id



    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/open/v1/events/{event_id}".format(event_id=quote(str(event_id), safe=""),),
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AssetsAssignmentChangedEvent | CredentialExpiryApproachingEvent | CredentialRotationDueEvent | InventoryStockInCreatedEvent | WebhookEndpointDisabledEvent | Error | None:
    if response.status_code == 200:
        def _parse_response_200(data: object) -> AssetsAssignmentChangedEvent | CredentialExpiryApproachingEvent | CredentialRotationDueEvent | InventoryStockInCreatedEvent | WebhookEndpointDisabledEvent:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_0 = WebhookEndpointDisabledEvent.from_dict(data)



                return componentsschemas_event_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_1 = CredentialRotationDueEvent.from_dict(data)



                return componentsschemas_event_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_2 = CredentialExpiryApproachingEvent.from_dict(data)



                return componentsschemas_event_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_3 = AssetsAssignmentChangedEvent.from_dict(data)



                return componentsschemas_event_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_event_type_4 = InventoryStockInCreatedEvent.from_dict(data)



            return componentsschemas_event_type_4

        response_200 = _parse_response_200(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())



        return response_401

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[AssetsAssignmentChangedEvent | CredentialExpiryApproachingEvent | CredentialRotationDueEvent | InventoryStockInCreatedEvent | WebhookEndpointDisabledEvent | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    event_id: str,
    *,
    client: AuthenticatedClient,
    x_request_id: str | Unset = UNSET,

) -> Response[AssetsAssignmentChangedEvent | CredentialExpiryApproachingEvent | CredentialRotationDueEvent | InventoryStockInCreatedEvent | WebhookEndpointDisabledEvent | Error]:
    """ Read one of the installation's events

     The event as its webhook deliveries carry it. An id this installation cannot read (unknown,
    another tenant's or application's, of a type its grant does not read, or past the events
    retention period) is 404 `event_not_found`. Needs no scope of its own.

    Args:
        event_id (str):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AssetsAssignmentChangedEvent | CredentialExpiryApproachingEvent | CredentialRotationDueEvent | InventoryStockInCreatedEvent | WebhookEndpointDisabledEvent | Error]
     """


    kwargs = _get_kwargs(
        event_id=event_id,
x_request_id=x_request_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    event_id: str,
    *,
    client: AuthenticatedClient,
    x_request_id: str | Unset = UNSET,

) -> AssetsAssignmentChangedEvent | CredentialExpiryApproachingEvent | CredentialRotationDueEvent | InventoryStockInCreatedEvent | WebhookEndpointDisabledEvent | Error | None:
    """ Read one of the installation's events

     The event as its webhook deliveries carry it. An id this installation cannot read (unknown,
    another tenant's or application's, of a type its grant does not read, or past the events
    retention period) is 404 `event_not_found`. Needs no scope of its own.

    Args:
        event_id (str):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AssetsAssignmentChangedEvent | CredentialExpiryApproachingEvent | CredentialRotationDueEvent | InventoryStockInCreatedEvent | WebhookEndpointDisabledEvent | Error
     """


    return sync_detailed(
        event_id=event_id,
client=client,
x_request_id=x_request_id,

    ).parsed

async def asyncio_detailed(
    event_id: str,
    *,
    client: AuthenticatedClient,
    x_request_id: str | Unset = UNSET,

) -> Response[AssetsAssignmentChangedEvent | CredentialExpiryApproachingEvent | CredentialRotationDueEvent | InventoryStockInCreatedEvent | WebhookEndpointDisabledEvent | Error]:
    """ Read one of the installation's events

     The event as its webhook deliveries carry it. An id this installation cannot read (unknown,
    another tenant's or application's, of a type its grant does not read, or past the events
    retention period) is 404 `event_not_found`. Needs no scope of its own.

    Args:
        event_id (str):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AssetsAssignmentChangedEvent | CredentialExpiryApproachingEvent | CredentialRotationDueEvent | InventoryStockInCreatedEvent | WebhookEndpointDisabledEvent | Error]
     """


    kwargs = _get_kwargs(
        event_id=event_id,
x_request_id=x_request_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    event_id: str,
    *,
    client: AuthenticatedClient,
    x_request_id: str | Unset = UNSET,

) -> AssetsAssignmentChangedEvent | CredentialExpiryApproachingEvent | CredentialRotationDueEvent | InventoryStockInCreatedEvent | WebhookEndpointDisabledEvent | Error | None:
    """ Read one of the installation's events

     The event as its webhook deliveries carry it. An id this installation cannot read (unknown,
    another tenant's or application's, of a type its grant does not read, or past the events
    retention period) is 404 `event_not_found`. Needs no scope of its own.

    Args:
        event_id (str):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AssetsAssignmentChangedEvent | CredentialExpiryApproachingEvent | CredentialRotationDueEvent | InventoryStockInCreatedEvent | WebhookEndpointDisabledEvent | Error
     """


    return (await asyncio_detailed(
        event_id=event_id,
client=client,
x_request_id=x_request_id,

    )).parsed
