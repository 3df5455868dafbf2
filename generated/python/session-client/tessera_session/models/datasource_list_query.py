from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.datasource_field import DatasourceField
from ..models.sort_order import SortOrder
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.datasource_null_test import DatasourceNullTest
  from ..models.datasource_text_comparison import DatasourceTextComparison
  from ..models.datasource_text_in import DatasourceTextIn
  from ..models.datasource_text_like import DatasourceTextLike





T = TypeVar("T", bound="DatasourceListQuery")



@_attrs_define
class DatasourceListQuery:
    """ The parameters of `listDatasourceItems`; all optional.

        Attributes:
            page_num (int | Unset): 1-based page number. `page` is not an alias. Default: `1`.
            page_size (int | Unset): Items per page, at most 500 and at most `maxItems`; without it, `maxItems` items.
            keyword (str | Unset): Case-insensitive substring of the items' labels.
            sort_field (DatasourceField | Unset): A field of the list: to sort on, or to test for empty.
            sort_order (SortOrder | Unset): Sort direction, ascending or descending.
            filters (list[DatasourceNullTest | DatasourceTextComparison | DatasourceTextIn | DatasourceTextLike] | Unset):
                Filter conditions `{fieldName, operator, value}`, all of which must hold: at most 20. Fields: `label`, `value`.
                `ne` and `not_in` also match records where the field is empty.
     """

    page_num: int | Unset = UNSET
    page_size: int | Unset = UNSET
    keyword: str | Unset = UNSET
    sort_field: DatasourceField | Unset = UNSET
    sort_order: SortOrder | Unset = UNSET
    filters: list[DatasourceNullTest | DatasourceTextComparison | DatasourceTextIn | DatasourceTextLike] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.datasource_null_test import DatasourceNullTest # noqa: PLC0415
        from ..models.datasource_text_comparison import DatasourceTextComparison # noqa: PLC0415
        from ..models.datasource_text_in import DatasourceTextIn # noqa: PLC0415
        from ..models.datasource_text_like import DatasourceTextLike # noqa: PLC0415
        page_num = self.page_num

        page_size = self.page_size

        keyword = self.keyword

        sort_field: str | Unset = UNSET
        if not isinstance(self.sort_field, Unset):
            sort_field = self.sort_field.value


        sort_order: str | Unset = UNSET
        if not isinstance(self.sort_order, Unset):
            sort_order = self.sort_order.value


        filters: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.filters, Unset):
            filters = []
            for filters_item_data in self.filters:
                filters_item: dict[str, Any]
                if isinstance(filters_item_data, DatasourceTextComparison):
                    filters_item = filters_item_data.to_dict()
                elif isinstance(filters_item_data, DatasourceTextLike):
                    filters_item = filters_item_data.to_dict()
                elif isinstance(filters_item_data, DatasourceTextIn):
                    filters_item = filters_item_data.to_dict()
                else:
                    filters_item = filters_item_data.to_dict()

                filters.append(filters_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if page_num is not UNSET:
            field_dict["pageNum"] = page_num
        if page_size is not UNSET:
            field_dict["pageSize"] = page_size
        if keyword is not UNSET:
            field_dict["keyword"] = keyword
        if sort_field is not UNSET:
            field_dict["sortField"] = sort_field
        if sort_order is not UNSET:
            field_dict["sortOrder"] = sort_order
        if filters is not UNSET:
            field_dict["filters"] = filters

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.datasource_null_test import DatasourceNullTest # noqa: PLC0415
        from ..models.datasource_text_comparison import DatasourceTextComparison # noqa: PLC0415
        from ..models.datasource_text_in import DatasourceTextIn # noqa: PLC0415
        from ..models.datasource_text_like import DatasourceTextLike # noqa: PLC0415
        d = dict(src_dict)
        page_num = d.pop("pageNum", UNSET)

        page_size = d.pop("pageSize", UNSET)

        keyword = d.pop("keyword", UNSET)

        _sort_field = d.pop("sortField", UNSET)
        sort_field: DatasourceField | Unset
        if isinstance(_sort_field,  Unset):
            sort_field = UNSET
        else:
            sort_field = DatasourceField(_sort_field)




        _sort_order = d.pop("sortOrder", UNSET)
        sort_order: SortOrder | Unset
        if isinstance(_sort_order,  Unset):
            sort_order = UNSET
        else:
            sort_order = SortOrder(_sort_order)




        _filters = d.pop("filters", UNSET)
        filters: list[DatasourceNullTest | DatasourceTextComparison | DatasourceTextIn | DatasourceTextLike] | Unset = UNSET
        if _filters is not UNSET:
            filters = []
            for filters_item_data in _filters:
                def _parse_filters_item(data: object) -> DatasourceNullTest | DatasourceTextComparison | DatasourceTextIn | DatasourceTextLike:
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_datasource_filter_condition_type_0 = DatasourceTextComparison.from_dict(data)



                        return componentsschemas_datasource_filter_condition_type_0
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_datasource_filter_condition_type_1 = DatasourceTextLike.from_dict(data)



                        return componentsschemas_datasource_filter_condition_type_1
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_datasource_filter_condition_type_2 = DatasourceTextIn.from_dict(data)



                        return componentsschemas_datasource_filter_condition_type_2
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_datasource_filter_condition_type_3 = DatasourceNullTest.from_dict(data)



                    return componentsschemas_datasource_filter_condition_type_3

                filters_item = _parse_filters_item(filters_item_data)

                filters.append(filters_item)


        datasource_list_query = cls(
            page_num=page_num,
            page_size=page_size,
            keyword=keyword,
            sort_field=sort_field,
            sort_order=sort_order,
            filters=filters,
        )

        return datasource_list_query

