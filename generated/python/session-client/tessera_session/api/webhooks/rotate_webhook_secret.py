from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_envelope import ErrorEnvelope
from ...models.forbidden_envelope import ForbiddenEnvelope
from ...models.internal_error_envelope import InternalErrorEnvelope
from ...models.rotate_webhook_secret_request import RotateWebhookSecretRequest
from ...models.rotated_webhook_secret_envelope import RotatedWebhookSecretEnvelope
from ...models.validation_error_envelope import ValidationErrorEnvelope
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    endpoint_id: str,
    *,
    body: RotateWebhookSecretRequest,
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
        "url": "/api/open-platform/webhook-endpoints/{endpoint_id}/rotate-secret".format(endpoint_id=quote(str(endpoint_id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | RotatedWebhookSecretEnvelope | ValidationErrorEnvelope | None:
    if response.status_code == 200:
        response_200 = RotatedWebhookSecretEnvelope.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | RotatedWebhookSecretEnvelope | ValidationErrorEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    endpoint_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: RotateWebhookSecretRequest,
    x_tenant_id: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> Response[ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | RotatedWebhookSecretEnvelope | ValidationErrorEnvelope]:
    """ Rotate a webhook endpoint's signing secret

     Issues a new signing secret, in force at once. The secrets in force until now keep
    signing for `overlapSeconds` more (0 to 7 days; 0 ends them now) and then expire at
    `previousSecretsExpireAt` (a previous secret already due to expire earlier keeps its
    earlier end). **During the overlap every delivery carries one signature per active
    secret, newest first: `sha256=<hex>` entries comma-separated in `X-Webhook-Signature`
    (`tessera` format), `v1,<base64>` entries space-separated in `webhook-signature`
    (`standard-webhooks`)**, so a receiver can switch to the new secret at any moment within
    the overlap: it accepts a delivery when any one signature matches (the official Standard
    Webhooks libraries do). The new secret has the form of the endpoint's `signatureFormat`
    (`twsec_...` or `whsec_<base64>`). **The new secret is shown exactly once**, in this response,
    which carries `Cache-Control: no-store`; it is never audited. Only an `owner` of the
    application may do it: an unknown or deleted endpoint or a non-member gets 404
    `NOT_FOUND`, a maintainer or viewer 403 `FORBIDDEN` with `data.permission`
    `application:owner`. Audited as `webhook_endpoint.rotate_secret`.

    Args:
        endpoint_id (str):
        x_tenant_id (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):
        body (RotateWebhookSecretRequest):  Example: {'overlapSeconds': 86400}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | RotatedWebhookSecretEnvelope | ValidationErrorEnvelope]
     """


    kwargs = _get_kwargs(
        endpoint_id=endpoint_id,
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
    endpoint_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: RotateWebhookSecretRequest,
    x_tenant_id: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | RotatedWebhookSecretEnvelope | ValidationErrorEnvelope | None:
    """ Rotate a webhook endpoint's signing secret

     Issues a new signing secret, in force at once. The secrets in force until now keep
    signing for `overlapSeconds` more (0 to 7 days; 0 ends them now) and then expire at
    `previousSecretsExpireAt` (a previous secret already due to expire earlier keeps its
    earlier end). **During the overlap every delivery carries one signature per active
    secret, newest first: `sha256=<hex>` entries comma-separated in `X-Webhook-Signature`
    (`tessera` format), `v1,<base64>` entries space-separated in `webhook-signature`
    (`standard-webhooks`)**, so a receiver can switch to the new secret at any moment within
    the overlap: it accepts a delivery when any one signature matches (the official Standard
    Webhooks libraries do). The new secret has the form of the endpoint's `signatureFormat`
    (`twsec_...` or `whsec_<base64>`). **The new secret is shown exactly once**, in this response,
    which carries `Cache-Control: no-store`; it is never audited. Only an `owner` of the
    application may do it: an unknown or deleted endpoint or a non-member gets 404
    `NOT_FOUND`, a maintainer or viewer 403 `FORBIDDEN` with `data.permission`
    `application:owner`. Audited as `webhook_endpoint.rotate_secret`.

    Args:
        endpoint_id (str):
        x_tenant_id (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):
        body (RotateWebhookSecretRequest):  Example: {'overlapSeconds': 86400}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | RotatedWebhookSecretEnvelope | ValidationErrorEnvelope
     """


    return sync_detailed(
        endpoint_id=endpoint_id,
client=client,
body=body,
x_tenant_id=x_tenant_id,
accept_language=accept_language,
x_request_id=x_request_id,

    ).parsed

async def asyncio_detailed(
    endpoint_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: RotateWebhookSecretRequest,
    x_tenant_id: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> Response[ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | RotatedWebhookSecretEnvelope | ValidationErrorEnvelope]:
    """ Rotate a webhook endpoint's signing secret

     Issues a new signing secret, in force at once. The secrets in force until now keep
    signing for `overlapSeconds` more (0 to 7 days; 0 ends them now) and then expire at
    `previousSecretsExpireAt` (a previous secret already due to expire earlier keeps its
    earlier end). **During the overlap every delivery carries one signature per active
    secret, newest first: `sha256=<hex>` entries comma-separated in `X-Webhook-Signature`
    (`tessera` format), `v1,<base64>` entries space-separated in `webhook-signature`
    (`standard-webhooks`)**, so a receiver can switch to the new secret at any moment within
    the overlap: it accepts a delivery when any one signature matches (the official Standard
    Webhooks libraries do). The new secret has the form of the endpoint's `signatureFormat`
    (`twsec_...` or `whsec_<base64>`). **The new secret is shown exactly once**, in this response,
    which carries `Cache-Control: no-store`; it is never audited. Only an `owner` of the
    application may do it: an unknown or deleted endpoint or a non-member gets 404
    `NOT_FOUND`, a maintainer or viewer 403 `FORBIDDEN` with `data.permission`
    `application:owner`. Audited as `webhook_endpoint.rotate_secret`.

    Args:
        endpoint_id (str):
        x_tenant_id (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):
        body (RotateWebhookSecretRequest):  Example: {'overlapSeconds': 86400}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | RotatedWebhookSecretEnvelope | ValidationErrorEnvelope]
     """


    kwargs = _get_kwargs(
        endpoint_id=endpoint_id,
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
    endpoint_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: RotateWebhookSecretRequest,
    x_tenant_id: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | RotatedWebhookSecretEnvelope | ValidationErrorEnvelope | None:
    """ Rotate a webhook endpoint's signing secret

     Issues a new signing secret, in force at once. The secrets in force until now keep
    signing for `overlapSeconds` more (0 to 7 days; 0 ends them now) and then expire at
    `previousSecretsExpireAt` (a previous secret already due to expire earlier keeps its
    earlier end). **During the overlap every delivery carries one signature per active
    secret, newest first: `sha256=<hex>` entries comma-separated in `X-Webhook-Signature`
    (`tessera` format), `v1,<base64>` entries space-separated in `webhook-signature`
    (`standard-webhooks`)**, so a receiver can switch to the new secret at any moment within
    the overlap: it accepts a delivery when any one signature matches (the official Standard
    Webhooks libraries do). The new secret has the form of the endpoint's `signatureFormat`
    (`twsec_...` or `whsec_<base64>`). **The new secret is shown exactly once**, in this response,
    which carries `Cache-Control: no-store`; it is never audited. Only an `owner` of the
    application may do it: an unknown or deleted endpoint or a non-member gets 404
    `NOT_FOUND`, a maintainer or viewer 403 `FORBIDDEN` with `data.permission`
    `application:owner`. Audited as `webhook_endpoint.rotate_secret`.

    Args:
        endpoint_id (str):
        x_tenant_id (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):
        body (RotateWebhookSecretRequest):  Example: {'overlapSeconds': 86400}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | RotatedWebhookSecretEnvelope | ValidationErrorEnvelope
     """


    return (await asyncio_detailed(
        endpoint_id=endpoint_id,
client=client,
body=body,
x_tenant_id=x_tenant_id,
accept_language=accept_language,
x_request_id=x_request_id,

    )).parsed
