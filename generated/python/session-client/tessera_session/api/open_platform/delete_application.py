from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.deleted_application_envelope import DeletedApplicationEnvelope
from ...models.error_envelope import ErrorEnvelope
from ...models.forbidden_envelope import ForbiddenEnvelope
from ...models.internal_error_envelope import InternalErrorEnvelope
from ...models.validation_error_envelope import ValidationErrorEnvelope
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    app_id: str,
    *,
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



    

    

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/api/open-platform/applications/{app_id}".format(app_id=quote(str(app_id), safe=""),),
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> DeletedApplicationEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope | None:
    if response.status_code == 200:
        response_200 = DeletedApplicationEnvelope.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[DeletedApplicationEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    app_id: str,
    *,
    client: AuthenticatedClient | Client,
    x_tenant_id: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> Response[DeletedApplicationEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope]:
    """ Delete an application

     Deletes the application for good: every credential of its installations is revoked and
    every token dead, its installations are removed (disabled, no longer listed, no longer
    reachable), its webhook endpoints are deleted and their pending deliveries are not sent.
    Afterwards the application is 404 `NOT_FOUND` and is listed no more. Its history stays in
    the audit log: `application.delete` (with the installations and credentials it took) and
    every entry before it. Only an `owner` may do it: a non-member gets 404 `NOT_FOUND`, a
    maintainer or viewer 403 `FORBIDDEN` with `data.permission` `application:owner`. No
    request body.

    Args:
        app_id (str):
        x_tenant_id (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeletedApplicationEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope]
     """


    kwargs = _get_kwargs(
        app_id=app_id,
x_tenant_id=x_tenant_id,
accept_language=accept_language,
x_request_id=x_request_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    app_id: str,
    *,
    client: AuthenticatedClient | Client,
    x_tenant_id: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> DeletedApplicationEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope | None:
    """ Delete an application

     Deletes the application for good: every credential of its installations is revoked and
    every token dead, its installations are removed (disabled, no longer listed, no longer
    reachable), its webhook endpoints are deleted and their pending deliveries are not sent.
    Afterwards the application is 404 `NOT_FOUND` and is listed no more. Its history stays in
    the audit log: `application.delete` (with the installations and credentials it took) and
    every entry before it. Only an `owner` may do it: a non-member gets 404 `NOT_FOUND`, a
    maintainer or viewer 403 `FORBIDDEN` with `data.permission` `application:owner`. No
    request body.

    Args:
        app_id (str):
        x_tenant_id (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeletedApplicationEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope
     """


    return sync_detailed(
        app_id=app_id,
client=client,
x_tenant_id=x_tenant_id,
accept_language=accept_language,
x_request_id=x_request_id,

    ).parsed

async def asyncio_detailed(
    app_id: str,
    *,
    client: AuthenticatedClient | Client,
    x_tenant_id: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> Response[DeletedApplicationEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope]:
    """ Delete an application

     Deletes the application for good: every credential of its installations is revoked and
    every token dead, its installations are removed (disabled, no longer listed, no longer
    reachable), its webhook endpoints are deleted and their pending deliveries are not sent.
    Afterwards the application is 404 `NOT_FOUND` and is listed no more. Its history stays in
    the audit log: `application.delete` (with the installations and credentials it took) and
    every entry before it. Only an `owner` may do it: a non-member gets 404 `NOT_FOUND`, a
    maintainer or viewer 403 `FORBIDDEN` with `data.permission` `application:owner`. No
    request body.

    Args:
        app_id (str):
        x_tenant_id (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeletedApplicationEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope]
     """


    kwargs = _get_kwargs(
        app_id=app_id,
x_tenant_id=x_tenant_id,
accept_language=accept_language,
x_request_id=x_request_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    app_id: str,
    *,
    client: AuthenticatedClient | Client,
    x_tenant_id: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> DeletedApplicationEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope | None:
    """ Delete an application

     Deletes the application for good: every credential of its installations is revoked and
    every token dead, its installations are removed (disabled, no longer listed, no longer
    reachable), its webhook endpoints are deleted and their pending deliveries are not sent.
    Afterwards the application is 404 `NOT_FOUND` and is listed no more. Its history stays in
    the audit log: `application.delete` (with the installations and credentials it took) and
    every entry before it. Only an `owner` may do it: a non-member gets 404 `NOT_FOUND`, a
    maintainer or viewer 403 `FORBIDDEN` with `data.permission` `application:owner`. No
    request body.

    Args:
        app_id (str):
        x_tenant_id (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeletedApplicationEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope
     """


    return (await asyncio_detailed(
        app_id=app_id,
client=client,
x_tenant_id=x_tenant_id,
accept_language=accept_language,
x_request_id=x_request_id,

    )).parsed
