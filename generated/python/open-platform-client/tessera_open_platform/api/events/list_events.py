from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.event_page import EventPage
from ...models.list_events_type_item import ListEventsTypeItem
from ...types import UNSET, Unset
from typing import cast
import datetime



def _get_kwargs(
    *,
    type_: list[ListEventsTypeItem] | Unset = UNSET,
    since: datetime.datetime | Unset = UNSET,
    until: datetime.datetime | Unset = UNSET,
    after: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 50,
    x_request_id: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_request_id, Unset):
        headers["X-Request-Id"] = x_request_id



    

    params: dict[str, Any] = {}

    json_type_: list[str] | Unset = UNSET
    if not isinstance(type_, Unset):
        json_type_ = []
        for type_item_data in type_:
            type_item = type_item_data.value
            json_type_.append(type_item)


    params["type"] = json_type_

    json_since: str | Unset = UNSET
    if not isinstance(since, Unset):
        json_since = since.isoformat()
    params["since"] = json_since

    json_until: str | Unset = UNSET
    if not isinstance(until, Unset):
        json_until = until.isoformat()
    params["until"] = json_until

    params["after"] = after

    params["cursor"] = cursor

    params["limit"] = limit


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/open/v1/events",
        "params": params,
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | EventPage | None:
    if response.status_code == 200:
        response_200 = EventPage.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | EventPage]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    type_: list[ListEventsTypeItem] | Unset = UNSET,
    since: datetime.datetime | Unset = UNSET,
    until: datetime.datetime | Unset = UNSET,
    after: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 50,
    x_request_id: str | Unset = UNSET,

) -> Response[Error | EventPage]:
    """ List the installation's events, oldest first

     The events this installation's webhooks carry, with the same ids and bodies: its tenant's
    published events whose resource its grant may read (the scope of each type is in
    `x-webhooks`), and the operational events of its own application. Kept for the events
    retention period (30 days by default; `TESSERA_RETENTION_EVENTS_SECONDS`), whether or not
    any endpoint received them. An event is listed once it has been fanned out to webhooks,
    normally within a second of the change.

    Oldest first, in the order the events were fanned out. `nextCursor` is always given: pass
    it back as `cursor` for the next page, and keep asking with the last one when `hasMore` is
    false (a poll that finds nothing costs one indexed read). To resume after an outage longer
    than a cursor lives (24 hours), pass the id of the last event you processed as `after`.
    With both, the walk starts after the later of the two positions. `type`, `since` and
    `until` narrow what is listed; keep them the same for the whole walk. Deduplicate on the
    event id: it is the id of the webhook deliveries of the same event.

    Needs no scope of its own. Asking for a `type` whose resource the grant cannot read is 403
    `insufficient_scope`; without `type`, every readable type is listed.

    Args:
        type_ (list[ListEventsTypeItem] | Unset):
        since (datetime.datetime | Unset):
        until (datetime.datetime | Unset):
        after (str | Unset):
        cursor (str | Unset):
        limit (int | Unset):  Default: 50.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | EventPage]
     """


    kwargs = _get_kwargs(
        type_=type_,
since=since,
until=until,
after=after,
cursor=cursor,
limit=limit,
x_request_id=x_request_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    type_: list[ListEventsTypeItem] | Unset = UNSET,
    since: datetime.datetime | Unset = UNSET,
    until: datetime.datetime | Unset = UNSET,
    after: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 50,
    x_request_id: str | Unset = UNSET,

) -> Error | EventPage | None:
    """ List the installation's events, oldest first

     The events this installation's webhooks carry, with the same ids and bodies: its tenant's
    published events whose resource its grant may read (the scope of each type is in
    `x-webhooks`), and the operational events of its own application. Kept for the events
    retention period (30 days by default; `TESSERA_RETENTION_EVENTS_SECONDS`), whether or not
    any endpoint received them. An event is listed once it has been fanned out to webhooks,
    normally within a second of the change.

    Oldest first, in the order the events were fanned out. `nextCursor` is always given: pass
    it back as `cursor` for the next page, and keep asking with the last one when `hasMore` is
    false (a poll that finds nothing costs one indexed read). To resume after an outage longer
    than a cursor lives (24 hours), pass the id of the last event you processed as `after`.
    With both, the walk starts after the later of the two positions. `type`, `since` and
    `until` narrow what is listed; keep them the same for the whole walk. Deduplicate on the
    event id: it is the id of the webhook deliveries of the same event.

    Needs no scope of its own. Asking for a `type` whose resource the grant cannot read is 403
    `insufficient_scope`; without `type`, every readable type is listed.

    Args:
        type_ (list[ListEventsTypeItem] | Unset):
        since (datetime.datetime | Unset):
        until (datetime.datetime | Unset):
        after (str | Unset):
        cursor (str | Unset):
        limit (int | Unset):  Default: 50.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | EventPage
     """


    return sync_detailed(
        client=client,
type_=type_,
since=since,
until=until,
after=after,
cursor=cursor,
limit=limit,
x_request_id=x_request_id,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    type_: list[ListEventsTypeItem] | Unset = UNSET,
    since: datetime.datetime | Unset = UNSET,
    until: datetime.datetime | Unset = UNSET,
    after: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 50,
    x_request_id: str | Unset = UNSET,

) -> Response[Error | EventPage]:
    """ List the installation's events, oldest first

     The events this installation's webhooks carry, with the same ids and bodies: its tenant's
    published events whose resource its grant may read (the scope of each type is in
    `x-webhooks`), and the operational events of its own application. Kept for the events
    retention period (30 days by default; `TESSERA_RETENTION_EVENTS_SECONDS`), whether or not
    any endpoint received them. An event is listed once it has been fanned out to webhooks,
    normally within a second of the change.

    Oldest first, in the order the events were fanned out. `nextCursor` is always given: pass
    it back as `cursor` for the next page, and keep asking with the last one when `hasMore` is
    false (a poll that finds nothing costs one indexed read). To resume after an outage longer
    than a cursor lives (24 hours), pass the id of the last event you processed as `after`.
    With both, the walk starts after the later of the two positions. `type`, `since` and
    `until` narrow what is listed; keep them the same for the whole walk. Deduplicate on the
    event id: it is the id of the webhook deliveries of the same event.

    Needs no scope of its own. Asking for a `type` whose resource the grant cannot read is 403
    `insufficient_scope`; without `type`, every readable type is listed.

    Args:
        type_ (list[ListEventsTypeItem] | Unset):
        since (datetime.datetime | Unset):
        until (datetime.datetime | Unset):
        after (str | Unset):
        cursor (str | Unset):
        limit (int | Unset):  Default: 50.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | EventPage]
     """


    kwargs = _get_kwargs(
        type_=type_,
since=since,
until=until,
after=after,
cursor=cursor,
limit=limit,
x_request_id=x_request_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    type_: list[ListEventsTypeItem] | Unset = UNSET,
    since: datetime.datetime | Unset = UNSET,
    until: datetime.datetime | Unset = UNSET,
    after: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 50,
    x_request_id: str | Unset = UNSET,

) -> Error | EventPage | None:
    """ List the installation's events, oldest first

     The events this installation's webhooks carry, with the same ids and bodies: its tenant's
    published events whose resource its grant may read (the scope of each type is in
    `x-webhooks`), and the operational events of its own application. Kept for the events
    retention period (30 days by default; `TESSERA_RETENTION_EVENTS_SECONDS`), whether or not
    any endpoint received them. An event is listed once it has been fanned out to webhooks,
    normally within a second of the change.

    Oldest first, in the order the events were fanned out. `nextCursor` is always given: pass
    it back as `cursor` for the next page, and keep asking with the last one when `hasMore` is
    false (a poll that finds nothing costs one indexed read). To resume after an outage longer
    than a cursor lives (24 hours), pass the id of the last event you processed as `after`.
    With both, the walk starts after the later of the two positions. `type`, `since` and
    `until` narrow what is listed; keep them the same for the whole walk. Deduplicate on the
    event id: it is the id of the webhook deliveries of the same event.

    Needs no scope of its own. Asking for a `type` whose resource the grant cannot read is 403
    `insufficient_scope`; without `type`, every readable type is listed.

    Args:
        type_ (list[ListEventsTypeItem] | Unset):
        since (datetime.datetime | Unset):
        until (datetime.datetime | Unset):
        after (str | Unset):
        cursor (str | Unset):
        limit (int | Unset):  Default: 50.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | EventPage
     """


    return (await asyncio_detailed(
        client=client,
type_=type_,
since=since,
until=until,
after=after,
cursor=cursor,
limit=limit,
x_request_id=x_request_id,

    )).parsed
