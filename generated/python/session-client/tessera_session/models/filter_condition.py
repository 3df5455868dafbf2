from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.filter_condition_operator import FilterConditionOperator
from ..types import UNSET, Unset






T = TypeVar("T", bound="FilterCondition")



@_attrs_define
class FilterCondition:
    """ An element of the JSON array passed in `filters`.

        Attributes:
            field_name (str):
            operator (FilterConditionOperator):
            value (Any | Unset): Omitted for `is_null` / `is_not_null`; an array for `in` / `not_in`.
     """

    field_name: str
    operator: FilterConditionOperator
    value: Any | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        field_name = self.field_name

        operator = self.operator.value

        value = self.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "fieldName": field_name,
            "operator": operator,
        })
        if value is not UNSET:
            field_dict["value"] = value

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        field_name = d.pop("fieldName")

        operator = FilterConditionOperator(d.pop("operator"))




        value = d.pop("value", UNSET)

        filter_condition = cls(
            field_name=field_name,
            operator=operator,
            value=value,
        )


        filter_condition.additional_properties = d
        return filter_condition

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
