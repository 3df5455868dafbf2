from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.automation_run_field import AutomationRunField
from ..models.sort_order import SortOrder
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.automation_run_datetime_comparison import AutomationRunDatetimeComparison
  from ..models.automation_run_datetime_in import AutomationRunDatetimeIn
  from ..models.automation_run_integer_comparison import AutomationRunIntegerComparison
  from ..models.automation_run_integer_in import AutomationRunIntegerIn
  from ..models.automation_run_null_test import AutomationRunNullTest
  from ..models.automation_run_text_comparison import AutomationRunTextComparison
  from ..models.automation_run_text_in import AutomationRunTextIn
  from ..models.automation_run_text_like import AutomationRunTextLike





T = TypeVar("T", bound="AutomationRunListQuery")



@_attrs_define
class AutomationRunListQuery:
    """ The parameters of `listAutomationRuns`; all optional.

        Attributes:
            page_num (int | Unset): 1-based page number. `page` is not an alias. Default: `1`.
            page_size (int | Unset): Records per page, at most 500. `size` is not an alias. Default: `10`.
            keyword (str | Unset): Case-insensitive substring match on the model's searchable fields.
            sort_field (AutomationRunField | Unset): A field of the list: to sort on, or to test for empty.
            sort_order (SortOrder | Unset): Sort direction, ascending or descending.
            filters (list[AutomationRunDatetimeComparison | AutomationRunDatetimeIn | AutomationRunIntegerComparison |
                AutomationRunIntegerIn | AutomationRunNullTest | AutomationRunTextComparison | AutomationRunTextIn |
                AutomationRunTextLike] | Unset): Filter conditions `{fieldName, operator, value}`, all of which must hold: at
                most 20. Fields: `status`, `attempts`, `created_at`. `ne` and `not_in` also match records where the field is
                empty.
     """

    page_num: int | Unset = UNSET
    page_size: int | Unset = UNSET
    keyword: str | Unset = UNSET
    sort_field: AutomationRunField | Unset = UNSET
    sort_order: SortOrder | Unset = UNSET
    filters: list[AutomationRunDatetimeComparison | AutomationRunDatetimeIn | AutomationRunIntegerComparison | AutomationRunIntegerIn | AutomationRunNullTest | AutomationRunTextComparison | AutomationRunTextIn | AutomationRunTextLike] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.automation_run_datetime_comparison import AutomationRunDatetimeComparison # noqa: PLC0415
        from ..models.automation_run_datetime_in import AutomationRunDatetimeIn # noqa: PLC0415
        from ..models.automation_run_integer_comparison import AutomationRunIntegerComparison # noqa: PLC0415
        from ..models.automation_run_integer_in import AutomationRunIntegerIn # noqa: PLC0415
        from ..models.automation_run_null_test import AutomationRunNullTest # noqa: PLC0415
        from ..models.automation_run_text_comparison import AutomationRunTextComparison # noqa: PLC0415
        from ..models.automation_run_text_in import AutomationRunTextIn # noqa: PLC0415
        from ..models.automation_run_text_like import AutomationRunTextLike # noqa: PLC0415
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
                if isinstance(filters_item_data, AutomationRunTextComparison):
                    filters_item = filters_item_data.to_dict()
                elif isinstance(filters_item_data, AutomationRunTextLike):
                    filters_item = filters_item_data.to_dict()
                elif isinstance(filters_item_data, AutomationRunTextIn):
                    filters_item = filters_item_data.to_dict()
                elif isinstance(filters_item_data, AutomationRunIntegerComparison):
                    filters_item = filters_item_data.to_dict()
                elif isinstance(filters_item_data, AutomationRunIntegerIn):
                    filters_item = filters_item_data.to_dict()
                elif isinstance(filters_item_data, AutomationRunDatetimeComparison):
                    filters_item = filters_item_data.to_dict()
                elif isinstance(filters_item_data, AutomationRunDatetimeIn):
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
        from ..models.automation_run_datetime_comparison import AutomationRunDatetimeComparison # noqa: PLC0415
        from ..models.automation_run_datetime_in import AutomationRunDatetimeIn # noqa: PLC0415
        from ..models.automation_run_integer_comparison import AutomationRunIntegerComparison # noqa: PLC0415
        from ..models.automation_run_integer_in import AutomationRunIntegerIn # noqa: PLC0415
        from ..models.automation_run_null_test import AutomationRunNullTest # noqa: PLC0415
        from ..models.automation_run_text_comparison import AutomationRunTextComparison # noqa: PLC0415
        from ..models.automation_run_text_in import AutomationRunTextIn # noqa: PLC0415
        from ..models.automation_run_text_like import AutomationRunTextLike # noqa: PLC0415
        d = dict(src_dict)
        page_num = d.pop("pageNum", UNSET)

        page_size = d.pop("pageSize", UNSET)

        keyword = d.pop("keyword", UNSET)

        _sort_field = d.pop("sortField", UNSET)
        sort_field: AutomationRunField | Unset
        if isinstance(_sort_field,  Unset):
            sort_field = UNSET
        else:
            sort_field = AutomationRunField(_sort_field)




        _sort_order = d.pop("sortOrder", UNSET)
        sort_order: SortOrder | Unset
        if isinstance(_sort_order,  Unset):
            sort_order = UNSET
        else:
            sort_order = SortOrder(_sort_order)




        _filters = d.pop("filters", UNSET)
        filters: list[AutomationRunDatetimeComparison | AutomationRunDatetimeIn | AutomationRunIntegerComparison | AutomationRunIntegerIn | AutomationRunNullTest | AutomationRunTextComparison | AutomationRunTextIn | AutomationRunTextLike] | Unset = UNSET
        if _filters is not UNSET:
            filters = []
            for filters_item_data in _filters:
                def _parse_filters_item(data: object) -> AutomationRunDatetimeComparison | AutomationRunDatetimeIn | AutomationRunIntegerComparison | AutomationRunIntegerIn | AutomationRunNullTest | AutomationRunTextComparison | AutomationRunTextIn | AutomationRunTextLike:
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_automation_run_filter_condition_type_0 = AutomationRunTextComparison.from_dict(data)



                        return componentsschemas_automation_run_filter_condition_type_0
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_automation_run_filter_condition_type_1 = AutomationRunTextLike.from_dict(data)



                        return componentsschemas_automation_run_filter_condition_type_1
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_automation_run_filter_condition_type_2 = AutomationRunTextIn.from_dict(data)



                        return componentsschemas_automation_run_filter_condition_type_2
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_automation_run_filter_condition_type_3 = AutomationRunIntegerComparison.from_dict(data)



                        return componentsschemas_automation_run_filter_condition_type_3
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_automation_run_filter_condition_type_4 = AutomationRunIntegerIn.from_dict(data)



                        return componentsschemas_automation_run_filter_condition_type_4
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_automation_run_filter_condition_type_5 = AutomationRunDatetimeComparison.from_dict(data)



                        return componentsschemas_automation_run_filter_condition_type_5
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_automation_run_filter_condition_type_6 = AutomationRunDatetimeIn.from_dict(data)



                        return componentsschemas_automation_run_filter_condition_type_6
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_automation_run_filter_condition_type_7 = AutomationRunNullTest.from_dict(data)



                    return componentsschemas_automation_run_filter_condition_type_7

                filters_item = _parse_filters_item(filters_item_data)

                filters.append(filters_item)


        automation_run_list_query = cls(
            page_num=page_num,
            page_size=page_size,
            keyword=keyword,
            sort_field=sort_field,
            sort_order=sort_order,
            filters=filters,
        )

        return automation_run_list_query

