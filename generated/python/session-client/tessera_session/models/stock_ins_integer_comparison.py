from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.stock_ins_integer_comparison_field_name import StockInsIntegerComparisonFieldName
from ..models.stock_ins_integer_comparison_operator import StockInsIntegerComparisonOperator






T = TypeVar("T", bound="StockInsIntegerComparison")



@_attrs_define
class StockInsIntegerComparison:
    """ Compares an integer field with one value.

        Attributes:
            field_name (StockInsIntegerComparisonFieldName):
            operator (StockInsIntegerComparisonOperator):
            value (int):
     """

    field_name: StockInsIntegerComparisonFieldName
    operator: StockInsIntegerComparisonOperator
    value: int





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
        field_name = StockInsIntegerComparisonFieldName(d.pop("fieldName"))




        operator = StockInsIntegerComparisonOperator(d.pop("operator"))




        value = d.pop("value")

        stock_ins_integer_comparison = cls(
            field_name=field_name,
            operator=operator,
            value=value,
        )

        return stock_ins_integer_comparison

