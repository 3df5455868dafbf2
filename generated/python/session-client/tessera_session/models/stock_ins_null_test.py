from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.null_test_operator import NullTestOperator
from ..models.stock_ins_field import StockInsField






T = TypeVar("T", bound="StockInsNullTest")



@_attrs_define
class StockInsNullTest:
    """ The field is (not) empty; no value.

        Attributes:
            field_name (StockInsField): A field of the list: to sort on, or to test for empty.
            operator (NullTestOperator): The field is (not) empty.
     """

    field_name: StockInsField
    operator: NullTestOperator





    def to_dict(self) -> dict[str, Any]:
        field_name = self.field_name.value

        operator = self.operator.value


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "fieldName": field_name,
            "operator": operator,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        field_name = StockInsField(d.pop("fieldName"))




        operator = NullTestOperator(d.pop("operator"))




        stock_ins_null_test = cls(
            field_name=field_name,
            operator=operator,
        )

        return stock_ins_null_test

