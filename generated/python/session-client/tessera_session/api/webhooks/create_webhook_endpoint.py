from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.create_webhook_endpoint_request import CreateWebhookEndpointRequest
from ...models.created_webhook_endpoint_envelope import CreatedWebhookEndpointEnvelope
from ...models.error_envelope import ErrorEnvelope
from ...models.forbidden_envelope import ForbiddenEnvelope
from ...models.internal_error_envelope import InternalErrorEnvelope
from ...models.validation_error_envelope import ValidationErrorEnvelope
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    installation_id: str,
    *,
    body: CreateWebhookEndpointRequest,
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
        "url": "/api/open-platform/installations/{installation_id}/webhook-endpoints".format(installation_id=quote(str(installation_id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> CreatedWebhookEndpointEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope | None:
    if response.status_code == 200:
        response_200 = CreatedWebhookEndpointEnvelope.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[CreatedWebhookEndpointEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope]:
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
    body: CreateWebhookEndpointRequest,
    x_tenant_id: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> Response[CreatedWebhookEndpointEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope]:
    """ Register a webhook endpoint

     Registers a URL that receives the installation's webhook events of the given
    `eventTypes`, which must be published webhook event types (`assets.assignment.changed`,
    `inventory.stock-in.created`); duplicates are dropped and the types are stored sorted. The
    endpoint is enabled unless `enabled` is `false`.

    The URL must be `https` and its host must resolve to public addresses only: loopback,
    private, link-local, multicast, reserved and unspecified addresses are refused (SSRF
    protection), as are credentials in the URL, hosts that do not resolve and URLs over 2000
    characters, with 400 `VALIDATION_ERROR` and `data.fieldErrors.url`. The check is repeated
    before every delivery. With `TESSERA_WEBHOOK_ALLOW_LOOPBACK=true` (development and tests)
    `http` and `https` URLs whose host resolves to loopback addresses only are accepted too,
    and nothing else.

    **The signing secret is shown exactly once**, in this response, which carries
    `Cache-Control: no-store`; it is stored sealed (encrypted) and never audited. Every
    delivery is a POST signed in the endpoint's `signatureFormat`: `tessera` (the default)
    carries `X-Webhook-Delivery` (the delivery id), `X-Webhook-Timestamp` and
    `X-Webhook-Signature` (`sha256=` and the hex HMAC-SHA256 of `<timestamp>.<body>` keyed
    with the secret's UTF-8 bytes; the secret is `twsec_...`); `standard-webhooks` follows the
    Standard Webhooks specification, so its official libraries (`standardwebhooks` on PyPI and
    npm) verify it: `webhook-id` (the delivery id), `webhook-timestamp` and
    `webhook-signature` (`v1,` and the base64 HMAC-SHA256 of `<id>.<timestamp>.<body>`; the
    secret is `whsec_` and the base64 of the key). During a rotation overlap every delivery
    carries one signature per active secret, newest first: comma-separated in
    `X-Webhook-Signature`, space-separated in `webhook-signature`.

    Owners and maintainers of the installation's application may do it: an unknown
    installation or a non-member gets 404 `NOT_FOUND`, a viewer 403 `FORBIDDEN` with
    `data.permission` `application:maintainer`. Audited as `webhook_endpoint.create` in the
    installation's tenant.

    Args:
        installation_id (str):
        x_tenant_id (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):
        body (CreateWebhookEndpointRequest):  Example: {'url':
            'https://hooks.fleet.example/tessera', 'eventTypes': ['inventory.stock-in.created'],
            'enabled': True}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreatedWebhookEndpointEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope]
     """


    kwargs = _get_kwargs(
        installation_id=installation_id,
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
    installation_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: CreateWebhookEndpointRequest,
    x_tenant_id: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> CreatedWebhookEndpointEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope | None:
    """ Register a webhook endpoint

     Registers a URL that receives the installation's webhook events of the given
    `eventTypes`, which must be published webhook event types (`assets.assignment.changed`,
    `inventory.stock-in.created`); duplicates are dropped and the types are stored sorted. The
    endpoint is enabled unless `enabled` is `false`.

    The URL must be `https` and its host must resolve to public addresses only: loopback,
    private, link-local, multicast, reserved and unspecified addresses are refused (SSRF
    protection), as are credentials in the URL, hosts that do not resolve and URLs over 2000
    characters, with 400 `VALIDATION_ERROR` and `data.fieldErrors.url`. The check is repeated
    before every delivery. With `TESSERA_WEBHOOK_ALLOW_LOOPBACK=true` (development and tests)
    `http` and `https` URLs whose host resolves to loopback addresses only are accepted too,
    and nothing else.

    **The signing secret is shown exactly once**, in this response, which carries
    `Cache-Control: no-store`; it is stored sealed (encrypted) and never audited. Every
    delivery is a POST signed in the endpoint's `signatureFormat`: `tessera` (the default)
    carries `X-Webhook-Delivery` (the delivery id), `X-Webhook-Timestamp` and
    `X-Webhook-Signature` (`sha256=` and the hex HMAC-SHA256 of `<timestamp>.<body>` keyed
    with the secret's UTF-8 bytes; the secret is `twsec_...`); `standard-webhooks` follows the
    Standard Webhooks specification, so its official libraries (`standardwebhooks` on PyPI and
    npm) verify it: `webhook-id` (the delivery id), `webhook-timestamp` and
    `webhook-signature` (`v1,` and the base64 HMAC-SHA256 of `<id>.<timestamp>.<body>`; the
    secret is `whsec_` and the base64 of the key). During a rotation overlap every delivery
    carries one signature per active secret, newest first: comma-separated in
    `X-Webhook-Signature`, space-separated in `webhook-signature`.

    Owners and maintainers of the installation's application may do it: an unknown
    installation or a non-member gets 404 `NOT_FOUND`, a viewer 403 `FORBIDDEN` with
    `data.permission` `application:maintainer`. Audited as `webhook_endpoint.create` in the
    installation's tenant.

    Args:
        installation_id (str):
        x_tenant_id (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):
        body (CreateWebhookEndpointRequest):  Example: {'url':
            'https://hooks.fleet.example/tessera', 'eventTypes': ['inventory.stock-in.created'],
            'enabled': True}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreatedWebhookEndpointEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope
     """


    return sync_detailed(
        installation_id=installation_id,
client=client,
body=body,
x_tenant_id=x_tenant_id,
accept_language=accept_language,
x_request_id=x_request_id,

    ).parsed

async def asyncio_detailed(
    installation_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: CreateWebhookEndpointRequest,
    x_tenant_id: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> Response[CreatedWebhookEndpointEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope]:
    """ Register a webhook endpoint

     Registers a URL that receives the installation's webhook events of the given
    `eventTypes`, which must be published webhook event types (`assets.assignment.changed`,
    `inventory.stock-in.created`); duplicates are dropped and the types are stored sorted. The
    endpoint is enabled unless `enabled` is `false`.

    The URL must be `https` and its host must resolve to public addresses only: loopback,
    private, link-local, multicast, reserved and unspecified addresses are refused (SSRF
    protection), as are credentials in the URL, hosts that do not resolve and URLs over 2000
    characters, with 400 `VALIDATION_ERROR` and `data.fieldErrors.url`. The check is repeated
    before every delivery. With `TESSERA_WEBHOOK_ALLOW_LOOPBACK=true` (development and tests)
    `http` and `https` URLs whose host resolves to loopback addresses only are accepted too,
    and nothing else.

    **The signing secret is shown exactly once**, in this response, which carries
    `Cache-Control: no-store`; it is stored sealed (encrypted) and never audited. Every
    delivery is a POST signed in the endpoint's `signatureFormat`: `tessera` (the default)
    carries `X-Webhook-Delivery` (the delivery id), `X-Webhook-Timestamp` and
    `X-Webhook-Signature` (`sha256=` and the hex HMAC-SHA256 of `<timestamp>.<body>` keyed
    with the secret's UTF-8 bytes; the secret is `twsec_...`); `standard-webhooks` follows the
    Standard Webhooks specification, so its official libraries (`standardwebhooks` on PyPI and
    npm) verify it: `webhook-id` (the delivery id), `webhook-timestamp` and
    `webhook-signature` (`v1,` and the base64 HMAC-SHA256 of `<id>.<timestamp>.<body>`; the
    secret is `whsec_` and the base64 of the key). During a rotation overlap every delivery
    carries one signature per active secret, newest first: comma-separated in
    `X-Webhook-Signature`, space-separated in `webhook-signature`.

    Owners and maintainers of the installation's application may do it: an unknown
    installation or a non-member gets 404 `NOT_FOUND`, a viewer 403 `FORBIDDEN` with
    `data.permission` `application:maintainer`. Audited as `webhook_endpoint.create` in the
    installation's tenant.

    Args:
        installation_id (str):
        x_tenant_id (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):
        body (CreateWebhookEndpointRequest):  Example: {'url':
            'https://hooks.fleet.example/tessera', 'eventTypes': ['inventory.stock-in.created'],
            'enabled': True}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreatedWebhookEndpointEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope]
     """


    kwargs = _get_kwargs(
        installation_id=installation_id,
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
    installation_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: CreateWebhookEndpointRequest,
    x_tenant_id: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> CreatedWebhookEndpointEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope | None:
    """ Register a webhook endpoint

     Registers a URL that receives the installation's webhook events of the given
    `eventTypes`, which must be published webhook event types (`assets.assignment.changed`,
    `inventory.stock-in.created`); duplicates are dropped and the types are stored sorted. The
    endpoint is enabled unless `enabled` is `false`.

    The URL must be `https` and its host must resolve to public addresses only: loopback,
    private, link-local, multicast, reserved and unspecified addresses are refused (SSRF
    protection), as are credentials in the URL, hosts that do not resolve and URLs over 2000
    characters, with 400 `VALIDATION_ERROR` and `data.fieldErrors.url`. The check is repeated
    before every delivery. With `TESSERA_WEBHOOK_ALLOW_LOOPBACK=true` (development and tests)
    `http` and `https` URLs whose host resolves to loopback addresses only are accepted too,
    and nothing else.

    **The signing secret is shown exactly once**, in this response, which carries
    `Cache-Control: no-store`; it is stored sealed (encrypted) and never audited. Every
    delivery is a POST signed in the endpoint's `signatureFormat`: `tessera` (the default)
    carries `X-Webhook-Delivery` (the delivery id), `X-Webhook-Timestamp` and
    `X-Webhook-Signature` (`sha256=` and the hex HMAC-SHA256 of `<timestamp>.<body>` keyed
    with the secret's UTF-8 bytes; the secret is `twsec_...`); `standard-webhooks` follows the
    Standard Webhooks specification, so its official libraries (`standardwebhooks` on PyPI and
    npm) verify it: `webhook-id` (the delivery id), `webhook-timestamp` and
    `webhook-signature` (`v1,` and the base64 HMAC-SHA256 of `<id>.<timestamp>.<body>`; the
    secret is `whsec_` and the base64 of the key). During a rotation overlap every delivery
    carries one signature per active secret, newest first: comma-separated in
    `X-Webhook-Signature`, space-separated in `webhook-signature`.

    Owners and maintainers of the installation's application may do it: an unknown
    installation or a non-member gets 404 `NOT_FOUND`, a viewer 403 `FORBIDDEN` with
    `data.permission` `application:maintainer`. Audited as `webhook_endpoint.create` in the
    installation's tenant.

    Args:
        installation_id (str):
        x_tenant_id (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):
        body (CreateWebhookEndpointRequest):  Example: {'url':
            'https://hooks.fleet.example/tessera', 'eventTypes': ['inventory.stock-in.created'],
            'enabled': True}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreatedWebhookEndpointEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope
     """


    return (await asyncio_detailed(
        installation_id=installation_id,
client=client,
body=body,
x_tenant_id=x_tenant_id,
accept_language=accept_language,
x_request_id=x_request_id,

    )).parsed
