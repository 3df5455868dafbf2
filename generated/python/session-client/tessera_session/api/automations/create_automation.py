from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.automation_envelope import AutomationEnvelope
from ...models.create_automation_request import CreateAutomationRequest
from ...models.error_envelope import ErrorEnvelope
from ...models.forbidden_envelope import ForbiddenEnvelope
from ...models.internal_error_envelope import InternalErrorEnvelope
from ...models.validation_error_envelope import ValidationErrorEnvelope
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body: CreateAutomationRequest,
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
        "method": "post",
        "url": "/api/open-platform/automations",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AutomationEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope | None:
    if response.status_code == 200:
        response_200 = AutomationEnvelope.from_dict(response.json())



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

    if response.status_code == 405:
        response_405 = ErrorEnvelope.from_dict(response.json())



        return response_405

    if response.status_code == 406:
        response_406 = ErrorEnvelope.from_dict(response.json())



        return response_406

    if response.status_code == 413:
        response_413 = ErrorEnvelope.from_dict(response.json())



        return response_413

    if response.status_code == 414:
        response_414 = ErrorEnvelope.from_dict(response.json())



        return response_414

    if response.status_code == 415:
        response_415 = ErrorEnvelope.from_dict(response.json())



        return response_415

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[AutomationEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CreateAutomationRequest,
    x_tenant_id: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> Response[AutomationEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope]:
    """ Create an automation

     Creates an automation in the session's tenant (the JWT's, or `X-Tenant-Id`): for every
    inbound event of the tenant whose source and type match `trigger`, one run executes the
    `actions` (1 to 10) in order, all in one transaction, attributed to
    `automation:<automationId>`. `trigger.source` must be a published event source
    (`robot-fleet`) and `trigger.eventType` one of its types (`inventory.received`).

    An action is either
    * `{kind: command, command, input, targetPid?}`: a published Open Platform command
      (`assets.assign`, `inventory.stock-ins.create`) with its `input`; `targetPid` is
      required for commands that update a record; or
    * `{kind: sessionCommand, command, payload?, targetRecordId?}`: a session command
      (`<page>:<action>` as for `/api/meta/commands/execute/{commandCode}`, e.g.
      `stock-ins:create`) with its `payload` (required except for deletes); `targetRecordId`
      is required for updates and deletes.

    Inputs are a declarative mapping, never code: a string value `"$.data.<field>"` (nested
    `"$.data.a.b"` too), `"$.occurredAt"`, `"$.eventId"`, `"$.source"`, `"$.type"` or
    `"$.schemaVersion"` is looked up in the event (a missing `$.data` field is left out);
    every other value is a constant taken as it is. Unknown sources, types, commands, fields
    or event paths are 400 `VALIDATION_ERROR` naming each, e.g. `trigger.eventType`,
    `actions[0].command`, `actions[0].payload`. The input itself is validated when a run
    executes: a run that fails is retried on `TESSERA_AUTOMATION_RETRY_SCHEDULE` and then
    parked with its error (see the runs list). The automation is enabled unless `enabled` is
    `false`. Needs the tenant permission `automations:manage` (else 403 `FORBIDDEN` with
    `data.permission` `automations:manage`).

    Args:
        x_tenant_id (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):
        body (CreateAutomationRequest):  Example: {'name': 'Robot fleet receipts become stock-
            ins', 'trigger': {'source': 'robot-fleet', 'eventType': 'inventory.received'}, 'actions':
            [{'kind': 'sessionCommand', 'command': 'stock-ins:create', 'payload': {'sku':
            '$.data.sku', 'quantity': '$.data.quantity', 'warehouse': '$.data.warehouse',
            'receivedAt': '$.occurredAt', 'source': 'robot-fleet'}}]}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AutomationEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope]
     """


    kwargs = _get_kwargs(
        body=body,
x_tenant_id=x_tenant_id,
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
    body: CreateAutomationRequest,
    x_tenant_id: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> AutomationEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope | None:
    """ Create an automation

     Creates an automation in the session's tenant (the JWT's, or `X-Tenant-Id`): for every
    inbound event of the tenant whose source and type match `trigger`, one run executes the
    `actions` (1 to 10) in order, all in one transaction, attributed to
    `automation:<automationId>`. `trigger.source` must be a published event source
    (`robot-fleet`) and `trigger.eventType` one of its types (`inventory.received`).

    An action is either
    * `{kind: command, command, input, targetPid?}`: a published Open Platform command
      (`assets.assign`, `inventory.stock-ins.create`) with its `input`; `targetPid` is
      required for commands that update a record; or
    * `{kind: sessionCommand, command, payload?, targetRecordId?}`: a session command
      (`<page>:<action>` as for `/api/meta/commands/execute/{commandCode}`, e.g.
      `stock-ins:create`) with its `payload` (required except for deletes); `targetRecordId`
      is required for updates and deletes.

    Inputs are a declarative mapping, never code: a string value `"$.data.<field>"` (nested
    `"$.data.a.b"` too), `"$.occurredAt"`, `"$.eventId"`, `"$.source"`, `"$.type"` or
    `"$.schemaVersion"` is looked up in the event (a missing `$.data` field is left out);
    every other value is a constant taken as it is. Unknown sources, types, commands, fields
    or event paths are 400 `VALIDATION_ERROR` naming each, e.g. `trigger.eventType`,
    `actions[0].command`, `actions[0].payload`. The input itself is validated when a run
    executes: a run that fails is retried on `TESSERA_AUTOMATION_RETRY_SCHEDULE` and then
    parked with its error (see the runs list). The automation is enabled unless `enabled` is
    `false`. Needs the tenant permission `automations:manage` (else 403 `FORBIDDEN` with
    `data.permission` `automations:manage`).

    Args:
        x_tenant_id (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):
        body (CreateAutomationRequest):  Example: {'name': 'Robot fleet receipts become stock-
            ins', 'trigger': {'source': 'robot-fleet', 'eventType': 'inventory.received'}, 'actions':
            [{'kind': 'sessionCommand', 'command': 'stock-ins:create', 'payload': {'sku':
            '$.data.sku', 'quantity': '$.data.quantity', 'warehouse': '$.data.warehouse',
            'receivedAt': '$.occurredAt', 'source': 'robot-fleet'}}]}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AutomationEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope
     """


    return sync_detailed(
        client=client,
body=body,
x_tenant_id=x_tenant_id,
accept_language=accept_language,
x_request_id=x_request_id,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CreateAutomationRequest,
    x_tenant_id: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> Response[AutomationEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope]:
    """ Create an automation

     Creates an automation in the session's tenant (the JWT's, or `X-Tenant-Id`): for every
    inbound event of the tenant whose source and type match `trigger`, one run executes the
    `actions` (1 to 10) in order, all in one transaction, attributed to
    `automation:<automationId>`. `trigger.source` must be a published event source
    (`robot-fleet`) and `trigger.eventType` one of its types (`inventory.received`).

    An action is either
    * `{kind: command, command, input, targetPid?}`: a published Open Platform command
      (`assets.assign`, `inventory.stock-ins.create`) with its `input`; `targetPid` is
      required for commands that update a record; or
    * `{kind: sessionCommand, command, payload?, targetRecordId?}`: a session command
      (`<page>:<action>` as for `/api/meta/commands/execute/{commandCode}`, e.g.
      `stock-ins:create`) with its `payload` (required except for deletes); `targetRecordId`
      is required for updates and deletes.

    Inputs are a declarative mapping, never code: a string value `"$.data.<field>"` (nested
    `"$.data.a.b"` too), `"$.occurredAt"`, `"$.eventId"`, `"$.source"`, `"$.type"` or
    `"$.schemaVersion"` is looked up in the event (a missing `$.data` field is left out);
    every other value is a constant taken as it is. Unknown sources, types, commands, fields
    or event paths are 400 `VALIDATION_ERROR` naming each, e.g. `trigger.eventType`,
    `actions[0].command`, `actions[0].payload`. The input itself is validated when a run
    executes: a run that fails is retried on `TESSERA_AUTOMATION_RETRY_SCHEDULE` and then
    parked with its error (see the runs list). The automation is enabled unless `enabled` is
    `false`. Needs the tenant permission `automations:manage` (else 403 `FORBIDDEN` with
    `data.permission` `automations:manage`).

    Args:
        x_tenant_id (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):
        body (CreateAutomationRequest):  Example: {'name': 'Robot fleet receipts become stock-
            ins', 'trigger': {'source': 'robot-fleet', 'eventType': 'inventory.received'}, 'actions':
            [{'kind': 'sessionCommand', 'command': 'stock-ins:create', 'payload': {'sku':
            '$.data.sku', 'quantity': '$.data.quantity', 'warehouse': '$.data.warehouse',
            'receivedAt': '$.occurredAt', 'source': 'robot-fleet'}}]}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AutomationEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope]
     """


    kwargs = _get_kwargs(
        body=body,
x_tenant_id=x_tenant_id,
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
    body: CreateAutomationRequest,
    x_tenant_id: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> AutomationEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope | None:
    """ Create an automation

     Creates an automation in the session's tenant (the JWT's, or `X-Tenant-Id`): for every
    inbound event of the tenant whose source and type match `trigger`, one run executes the
    `actions` (1 to 10) in order, all in one transaction, attributed to
    `automation:<automationId>`. `trigger.source` must be a published event source
    (`robot-fleet`) and `trigger.eventType` one of its types (`inventory.received`).

    An action is either
    * `{kind: command, command, input, targetPid?}`: a published Open Platform command
      (`assets.assign`, `inventory.stock-ins.create`) with its `input`; `targetPid` is
      required for commands that update a record; or
    * `{kind: sessionCommand, command, payload?, targetRecordId?}`: a session command
      (`<page>:<action>` as for `/api/meta/commands/execute/{commandCode}`, e.g.
      `stock-ins:create`) with its `payload` (required except for deletes); `targetRecordId`
      is required for updates and deletes.

    Inputs are a declarative mapping, never code: a string value `"$.data.<field>"` (nested
    `"$.data.a.b"` too), `"$.occurredAt"`, `"$.eventId"`, `"$.source"`, `"$.type"` or
    `"$.schemaVersion"` is looked up in the event (a missing `$.data` field is left out);
    every other value is a constant taken as it is. Unknown sources, types, commands, fields
    or event paths are 400 `VALIDATION_ERROR` naming each, e.g. `trigger.eventType`,
    `actions[0].command`, `actions[0].payload`. The input itself is validated when a run
    executes: a run that fails is retried on `TESSERA_AUTOMATION_RETRY_SCHEDULE` and then
    parked with its error (see the runs list). The automation is enabled unless `enabled` is
    `false`. Needs the tenant permission `automations:manage` (else 403 `FORBIDDEN` with
    `data.permission` `automations:manage`).

    Args:
        x_tenant_id (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):
        body (CreateAutomationRequest):  Example: {'name': 'Robot fleet receipts become stock-
            ins', 'trigger': {'source': 'robot-fleet', 'eventType': 'inventory.received'}, 'actions':
            [{'kind': 'sessionCommand', 'command': 'stock-ins:create', 'payload': {'sku':
            '$.data.sku', 'quantity': '$.data.quantity', 'warehouse': '$.data.warehouse',
            'receivedAt': '$.occurredAt', 'source': 'robot-fleet'}}]}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AutomationEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope
     """


    return (await asyncio_detailed(
        client=client,
body=body,
x_tenant_id=x_tenant_id,
accept_language=accept_language,
x_request_id=x_request_id,

    )).parsed
