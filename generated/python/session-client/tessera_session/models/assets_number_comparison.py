from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.assets_number_field import AssetsNumberField
from ..models.comparison_operator import ComparisonOperator






T = TypeVar("T", bound="AssetsNumberComparison")



@_attrs_define
class AssetsNumberComparison:
    """ Compares a number field with one value.

        Attributes:
            field_name (AssetsNumberField): A field compared with a number value.
            operator (ComparisonOperator): Compares a field with one value.
            value (float): A number a filter compares with.
     """

    field_name: AssetsNumberField
    operator: ComparisonOperator
    value: float





    def to_dict(self) -> dict[str, Any]:
        field_name = self.field_name.value

        operator = self.operator.value

        value = self.value


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "fieldName": field_name,
            "operator": operator,
            "value": value,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        field_name = AssetsNumberField(d.pop("fieldName"))




        operator = ComparisonOperator(d.pop("operator"))




        value = d.pop("value")

        assets_number_comparison = cls(
            field_name=field_name,
            operator=operator,
            value=value,
        )

        return assets_number_comparison

