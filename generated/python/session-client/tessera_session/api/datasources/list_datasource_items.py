from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.datasource_envelope import DatasourceEnvelope
from ...models.datasource_field import DatasourceField
from ...models.error_envelope import ErrorEnvelope
from ...models.forbidden_envelope import ForbiddenEnvelope
from ...models.internal_error_envelope import InternalErrorEnvelope
from ...models.list_datasource_items_datasource_id import ListDatasourceItemsDatasourceId
from ...models.sort_order import SortOrder
from ...models.validation_error_envelope import ValidationErrorEnvelope
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    datasource_id: ListDatasourceItemsDatasourceId,
    max_items: int | Unset = 100,
    page_num: int | Unset = 1,
    page_size: int | Unset = UNSET,
    keyword: str | Unset = UNSET,
    sort_field: DatasourceField | Unset = UNSET,
    sort_order: SortOrder | Unset = SortOrder.DESC,
    filters: str | Unset = UNSET,
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

    json_datasource_id = datasource_id.value
    params["datasourceId"] = json_datasource_id

    params["maxItems"] = max_items

    params["pageNum"] = page_num

    params["pageSize"] = page_size

    params["keyword"] = keyword

    json_sort_field: str | Unset = UNSET
    if not isinstance(sort_field, Unset):
        json_sort_field = sort_field.value

    params["sortField"] = json_sort_field

    json_sort_order: str | Unset = UNSET
    if not isinstance(sort_order, Unset):
        json_sort_order = sort_order.value

    params["sortOrder"] = json_sort_order

    params["filters"] = filters


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/datasource/list",
        "params": params,
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> DatasourceEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope | None:
    if response.status_code == 200:
        response_200 = DatasourceEnvelope.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[DatasourceEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    datasource_id: ListDatasourceItemsDatasourceId,
    max_items: int | Unset = 100,
    page_num: int | Unset = 1,
    page_size: int | Unset = UNSET,
    keyword: str | Unset = UNSET,
    sort_field: DatasourceField | Unset = UNSET,
    sort_order: SortOrder | Unset = SortOrder.DESC,
    filters: str | Unset = UNSET,
    x_tenant_id: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> Response[DatasourceEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope]:
    """ Items of a data source

     Items of a declared data source (`datasourceId` lists them): `{value, label}` each,
    under the list contract every list follows. `keyword` matches part of the label
    (case-insensitive); `sortField` is `label` or `value` (with `sortOrder`, `desc` by
    default); `filters` compare `label` and `value`; `pageNum` and `pageSize` page them and
    `total` counts every match. `maxItems` keeps the meaning it has always had here: the
    most items one answer holds (a page is `pageSize` items but at most `maxItems`; without
    `pageSize`, `maxItems` of them, 100 by default). Without `sortField` the items come in
    their natural order: fixed options as declared, records by label.

    Args:
        datasource_id (ListDatasourceItemsDatasourceId):
        max_items (int | Unset):  Default: 100.
        page_num (int | Unset):  Default: 1.
        page_size (int | Unset):
        keyword (str | Unset):
        sort_field (DatasourceField | Unset): A field of the list: to sort on, or to test for
            empty.
        sort_order (SortOrder | Unset): Sort direction, ascending or descending. Default:
            SortOrder.DESC.
        filters (str | Unset):
        x_tenant_id (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DatasourceEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope]
     """


    kwargs = _get_kwargs(
        datasource_id=datasource_id,
max_items=max_items,
page_num=page_num,
page_size=page_size,
keyword=keyword,
sort_field=sort_field,
sort_order=sort_order,
filters=filters,
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
    datasource_id: ListDatasourceItemsDatasourceId,
    max_items: int | Unset = 100,
    page_num: int | Unset = 1,
    page_size: int | Unset = UNSET,
    keyword: str | Unset = UNSET,
    sort_field: DatasourceField | Unset = UNSET,
    sort_order: SortOrder | Unset = SortOrder.DESC,
    filters: str | Unset = UNSET,
    x_tenant_id: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> DatasourceEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope | None:
    """ Items of a data source

     Items of a declared data source (`datasourceId` lists them): `{value, label}` each,
    under the list contract every list follows. `keyword` matches part of the label
    (case-insensitive); `sortField` is `label` or `value` (with `sortOrder`, `desc` by
    default); `filters` compare `label` and `value`; `pageNum` and `pageSize` page them and
    `total` counts every match. `maxItems` keeps the meaning it has always had here: the
    most items one answer holds (a page is `pageSize` items but at most `maxItems`; without
    `pageSize`, `maxItems` of them, 100 by default). Without `sortField` the items come in
    their natural order: fixed options as declared, records by label.

    Args:
        datasource_id (ListDatasourceItemsDatasourceId):
        max_items (int | Unset):  Default: 100.
        page_num (int | Unset):  Default: 1.
        page_size (int | Unset):
        keyword (str | Unset):
        sort_field (DatasourceField | Unset): A field of the list: to sort on, or to test for
            empty.
        sort_order (SortOrder | Unset): Sort direction, ascending or descending. Default:
            SortOrder.DESC.
        filters (str | Unset):
        x_tenant_id (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DatasourceEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope
     """


    return sync_detailed(
        client=client,
datasource_id=datasource_id,
max_items=max_items,
page_num=page_num,
page_size=page_size,
keyword=keyword,
sort_field=sort_field,
sort_order=sort_order,
filters=filters,
x_tenant_id=x_tenant_id,
accept_language=accept_language,
x_request_id=x_request_id,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    datasource_id: ListDatasourceItemsDatasourceId,
    max_items: int | Unset = 100,
    page_num: int | Unset = 1,
    page_size: int | Unset = UNSET,
    keyword: str | Unset = UNSET,
    sort_field: DatasourceField | Unset = UNSET,
    sort_order: SortOrder | Unset = SortOrder.DESC,
    filters: str | Unset = UNSET,
    x_tenant_id: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> Response[DatasourceEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope]:
    """ Items of a data source

     Items of a declared data source (`datasourceId` lists them): `{value, label}` each,
    under the list contract every list follows. `keyword` matches part of the label
    (case-insensitive); `sortField` is `label` or `value` (with `sortOrder`, `desc` by
    default); `filters` compare `label` and `value`; `pageNum` and `pageSize` page them and
    `total` counts every match. `maxItems` keeps the meaning it has always had here: the
    most items one answer holds (a page is `pageSize` items but at most `maxItems`; without
    `pageSize`, `maxItems` of them, 100 by default). Without `sortField` the items come in
    their natural order: fixed options as declared, records by label.

    Args:
        datasource_id (ListDatasourceItemsDatasourceId):
        max_items (int | Unset):  Default: 100.
        page_num (int | Unset):  Default: 1.
        page_size (int | Unset):
        keyword (str | Unset):
        sort_field (DatasourceField | Unset): A field of the list: to sort on, or to test for
            empty.
        sort_order (SortOrder | Unset): Sort direction, ascending or descending. Default:
            SortOrder.DESC.
        filters (str | Unset):
        x_tenant_id (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DatasourceEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope]
     """


    kwargs = _get_kwargs(
        datasource_id=datasource_id,
max_items=max_items,
page_num=page_num,
page_size=page_size,
keyword=keyword,
sort_field=sort_field,
sort_order=sort_order,
filters=filters,
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
    datasource_id: ListDatasourceItemsDatasourceId,
    max_items: int | Unset = 100,
    page_num: int | Unset = 1,
    page_size: int | Unset = UNSET,
    keyword: str | Unset = UNSET,
    sort_field: DatasourceField | Unset = UNSET,
    sort_order: SortOrder | Unset = SortOrder.DESC,
    filters: str | Unset = UNSET,
    x_tenant_id: str | Unset = UNSET,
    accept_language: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,

) -> DatasourceEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope | None:
    """ Items of a data source

     Items of a declared data source (`datasourceId` lists them): `{value, label}` each,
    under the list contract every list follows. `keyword` matches part of the label
    (case-insensitive); `sortField` is `label` or `value` (with `sortOrder`, `desc` by
    default); `filters` compare `label` and `value`; `pageNum` and `pageSize` page them and
    `total` counts every match. `maxItems` keeps the meaning it has always had here: the
    most items one answer holds (a page is `pageSize` items but at most `maxItems`; without
    `pageSize`, `maxItems` of them, 100 by default). Without `sortField` the items come in
    their natural order: fixed options as declared, records by label.

    Args:
        datasource_id (ListDatasourceItemsDatasourceId):
        max_items (int | Unset):  Default: 100.
        page_num (int | Unset):  Default: 1.
        page_size (int | Unset):
        keyword (str | Unset):
        sort_field (DatasourceField | Unset): A field of the list: to sort on, or to test for
            empty.
        sort_order (SortOrder | Unset): Sort direction, ascending or descending. Default:
            SortOrder.DESC.
        filters (str | Unset):
        x_tenant_id (str | Unset):
        accept_language (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DatasourceEnvelope | ErrorEnvelope | ForbiddenEnvelope | InternalErrorEnvelope | ValidationErrorEnvelope
     """


    return (await asyncio_detailed(
        client=client,
datasource_id=datasource_id,
max_items=max_items,
page_num=page_num,
page_size=page_size,
keyword=keyword,
sort_field=sort_field,
sort_order=sort_order,
filters=filters,
x_tenant_id=x_tenant_id,
accept_language=accept_language,
x_request_id=x_request_id,

    )).parsed
