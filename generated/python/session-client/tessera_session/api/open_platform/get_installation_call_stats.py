from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.call_stats_envelope import CallStatsEnvelope
from ...models.error_envelope import ErrorEnvelope
from ...models.forbidden_envelope import ForbiddenEnvelope
from ...models.internal_error_envelope import InternalErrorEnvelope
from ...models.stats_window import StatsWindow
from ...models.validation_error_envelope import ValidationErrorEnvelope
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    installation_id: str,
    *,
    window: StatsWindow | Unset = UNSET,
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

    json_window: str | Unset = UNSET
    if not isinstance(window, Unset):
        json_window = window.value

    params["window"] = json_window


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/open-platform/installations/{installation_id}/call-stats".format(installation_id=quote(str(installation_id), safe=""),),
        "params": params,
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> CallStatsEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope | None:
    if response.status_code == 200:
        response_200 = CallStatsEnvelope.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[CallStatsEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope]:
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
    window: StatsWindow | Unset = UNSET,
    x_tenant_id: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> Response[CallStatsEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope]:
    """ Hourly Open Platform calls of an installation

     The installation's Open Platform calls per hour, from the call audit, over the last 24
    hours (`window=24h`, the default) or 7 days (`window=7d`): whole hours of UTC ending with
    the current one, oldest first, every hour present (24 or 168 buckets, zero when nothing
    happened). Each bucket gives the `total`, the count per status class (`status2xx`,
    `status3xx`, `status4xx`, `status5xx`) and per HTTP status (`statuses`). The call audit
    is written in batches, so a call shows up a fraction of a second after its answer. Any
    member of the installation's application (owner, maintainer or viewer) may read them; an
    unknown installation or a non-member gets 404 `NOT_FOUND`, another `window` 400
    `VALIDATION_ERROR`.

    Args:
        installation_id (str):
        window (StatsWindow | Unset): `24h`: the last 24 hours (24 hourly buckets); `7d`: the last
            7 days (168). Example: 24h.
        x_tenant_id (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CallStatsEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope]
     """


    kwargs = _get_kwargs(
        installation_id=installation_id,
window=window,
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
    window: StatsWindow | Unset = UNSET,
    x_tenant_id: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> CallStatsEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope | None:
    """ Hourly Open Platform calls of an installation

     The installation's Open Platform calls per hour, from the call audit, over the last 24
    hours (`window=24h`, the default) or 7 days (`window=7d`): whole hours of UTC ending with
    the current one, oldest first, every hour present (24 or 168 buckets, zero when nothing
    happened). Each bucket gives the `total`, the count per status class (`status2xx`,
    `status3xx`, `status4xx`, `status5xx`) and per HTTP status (`statuses`). The call audit
    is written in batches, so a call shows up a fraction of a second after its answer. Any
    member of the installation's application (owner, maintainer or viewer) may read them; an
    unknown installation or a non-member gets 404 `NOT_FOUND`, another `window` 400
    `VALIDATION_ERROR`.

    Args:
        installation_id (str):
        window (StatsWindow | Unset): `24h`: the last 24 hours (24 hourly buckets); `7d`: the last
            7 days (168). Example: 24h.
        x_tenant_id (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CallStatsEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope
     """


    return sync_detailed(
        installation_id=installation_id,
client=client,
window=window,
x_tenant_id=x_tenant_id,
accept_language=accept_language,
x_request_id=x_request_id,

    ).parsed

async def asyncio_detailed(
    installation_id: str,
    *,
    client: AuthenticatedClient | Client,
    window: StatsWindow | Unset = UNSET,
    x_tenant_id: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> Response[CallStatsEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope]:
    """ Hourly Open Platform calls of an installation

     The installation's Open Platform calls per hour, from the call audit, over the last 24
    hours (`window=24h`, the default) or 7 days (`window=7d`): whole hours of UTC ending with
    the current one, oldest first, every hour present (24 or 168 buckets, zero when nothing
    happened). Each bucket gives the `total`, the count per status class (`status2xx`,
    `status3xx`, `status4xx`, `status5xx`) and per HTTP status (`statuses`). The call audit
    is written in batches, so a call shows up a fraction of a second after its answer. Any
    member of the installation's application (owner, maintainer or viewer) may read them; an
    unknown installation or a non-member gets 404 `NOT_FOUND`, another `window` 400
    `VALIDATION_ERROR`.

    Args:
        installation_id (str):
        window (StatsWindow | Unset): `24h`: the last 24 hours (24 hourly buckets); `7d`: the last
            7 days (168). Example: 24h.
        x_tenant_id (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CallStatsEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope]
     """


    kwargs = _get_kwargs(
        installation_id=installation_id,
window=window,
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
    window: StatsWindow | Unset = UNSET,
    x_tenant_id: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> CallStatsEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope | None:
    """ Hourly Open Platform calls of an installation

     The installation's Open Platform calls per hour, from the call audit, over the last 24
    hours (`window=24h`, the default) or 7 days (`window=7d`): whole hours of UTC ending with
    the current one, oldest first, every hour present (24 or 168 buckets, zero when nothing
    happened). Each bucket gives the `total`, the count per status class (`status2xx`,
    `status3xx`, `status4xx`, `status5xx`) and per HTTP status (`statuses`). The call audit
    is written in batches, so a call shows up a fraction of a second after its answer. Any
    member of the installation's application (owner, maintainer or viewer) may read them; an
    unknown installation or a non-member gets 404 `NOT_FOUND`, another `window` 400
    `VALIDATION_ERROR`.

    Args:
        installation_id (str):
        window (StatsWindow | Unset): `24h`: the last 24 hours (24 hourly buckets); `7d`: the last
            7 days (168). Example: 24h.
        x_tenant_id (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CallStatsEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope
     """


    return (await asyncio_detailed(
        installation_id=installation_id,
client=client,
window=window,
x_tenant_id=x_tenant_id,
accept_language=accept_language,
x_request_id=x_request_id,

    )).parsed
