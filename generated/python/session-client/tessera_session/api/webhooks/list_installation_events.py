from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_envelope import ErrorEnvelope
from ...models.forbidden_envelope import ForbiddenEnvelope
from ...models.installation_events_envelope import InstallationEventsEnvelope
from ...models.internal_error_envelope import InternalErrorEnvelope
from ...models.validation_error_envelope import ValidationErrorEnvelope
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    installation_id: str,
    *,
    limit: int | Unset = 25,
    before: str | Unset = UNSET,
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



    

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["before"] = before


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/open-platform/installations/{installation_id}/events/list".format(installation_id=quote(str(installation_id), safe=""),),
        "params": params,
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorEnvelope | ForbiddenEnvelope | InstallationEventsEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope | None:
    if response.status_code == 200:
        response_200 = InstallationEventsEnvelope.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorEnvelope | ForbiddenEnvelope | InstallationEventsEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope]:
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
    limit: int | Unset = 25,
    before: str | Unset = UNSET,
    x_tenant_id: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> Response[ErrorEnvelope | ForbiddenEnvelope | InstallationEventsEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope]:
    """ The installation's events, newest first

     The events the installation's events API serves it (`GET /api/open/v1/events` of the Open
    Platform), with the same ids and bodies, newest first: its tenant's published events whose
    resource its grant reads, and its own application's operational events, for the events
    retention period (30 days by default). `limit` events at a time (25 by default, at most
    100); `nextBefore` names the event to pass as `before` for older ones, null when there are
    none. Any member of the installation's application (owner, maintainer or viewer) may read
    them; an unknown installation, a non-member, or a `before` event the installation cannot
    read gets 404 `NOT_FOUND`, a `limit` out of range 400 `VALIDATION_ERROR`.

    Args:
        installation_id (str):
        limit (int | Unset):  Default: 25.
        before (str | Unset):
        x_tenant_id (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | ForbiddenEnvelope | InstallationEventsEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope]
     """


    kwargs = _get_kwargs(
        installation_id=installation_id,
limit=limit,
before=before,
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
    limit: int | Unset = 25,
    before: str | Unset = UNSET,
    x_tenant_id: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> ErrorEnvelope | ForbiddenEnvelope | InstallationEventsEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope | None:
    """ The installation's events, newest first

     The events the installation's events API serves it (`GET /api/open/v1/events` of the Open
    Platform), with the same ids and bodies, newest first: its tenant's published events whose
    resource its grant reads, and its own application's operational events, for the events
    retention period (30 days by default). `limit` events at a time (25 by default, at most
    100); `nextBefore` names the event to pass as `before` for older ones, null when there are
    none. Any member of the installation's application (owner, maintainer or viewer) may read
    them; an unknown installation, a non-member, or a `before` event the installation cannot
    read gets 404 `NOT_FOUND`, a `limit` out of range 400 `VALIDATION_ERROR`.

    Args:
        installation_id (str):
        limit (int | Unset):  Default: 25.
        before (str | Unset):
        x_tenant_id (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | ForbiddenEnvelope | InstallationEventsEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope
     """


    return sync_detailed(
        installation_id=installation_id,
client=client,
limit=limit,
before=before,
x_tenant_id=x_tenant_id,
accept_language=accept_language,
x_request_id=x_request_id,

    ).parsed

async def asyncio_detailed(
    installation_id: str,
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 25,
    before: str | Unset = UNSET,
    x_tenant_id: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> Response[ErrorEnvelope | ForbiddenEnvelope | InstallationEventsEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope]:
    """ The installation's events, newest first

     The events the installation's events API serves it (`GET /api/open/v1/events` of the Open
    Platform), with the same ids and bodies, newest first: its tenant's published events whose
    resource its grant reads, and its own application's operational events, for the events
    retention period (30 days by default). `limit` events at a time (25 by default, at most
    100); `nextBefore` names the event to pass as `before` for older ones, null when there are
    none. Any member of the installation's application (owner, maintainer or viewer) may read
    them; an unknown installation, a non-member, or a `before` event the installation cannot
    read gets 404 `NOT_FOUND`, a `limit` out of range 400 `VALIDATION_ERROR`.

    Args:
        installation_id (str):
        limit (int | Unset):  Default: 25.
        before (str | Unset):
        x_tenant_id (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | ForbiddenEnvelope | InstallationEventsEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope]
     """


    kwargs = _get_kwargs(
        installation_id=installation_id,
limit=limit,
before=before,
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
    limit: int | Unset = 25,
    before: str | Unset = UNSET,
    x_tenant_id: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> ErrorEnvelope | ForbiddenEnvelope | InstallationEventsEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope | None:
    """ The installation's events, newest first

     The events the installation's events API serves it (`GET /api/open/v1/events` of the Open
    Platform), with the same ids and bodies, newest first: its tenant's published events whose
    resource its grant reads, and its own application's operational events, for the events
    retention period (30 days by default). `limit` events at a time (25 by default, at most
    100); `nextBefore` names the event to pass as `before` for older ones, null when there are
    none. Any member of the installation's application (owner, maintainer or viewer) may read
    them; an unknown installation, a non-member, or a `before` event the installation cannot
    read gets 404 `NOT_FOUND`, a `limit` out of range 400 `VALIDATION_ERROR`.

    Args:
        installation_id (str):
        limit (int | Unset):  Default: 25.
        before (str | Unset):
        x_tenant_id (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | ForbiddenEnvelope | InstallationEventsEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope
     """


    return (await asyncio_detailed(
        installation_id=installation_id,
client=client,
limit=limit,
before=before,
x_tenant_id=x_tenant_id,
accept_language=accept_language,
x_request_id=x_request_id,

    )).parsed
