from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.delivery_integer_comparison_field_name import DeliveryIntegerComparisonFieldName
from ..models.delivery_integer_comparison_operator import DeliveryIntegerComparisonOperator






T = TypeVar("T", bound="DeliveryIntegerComparison")



@_attrs_define
class DeliveryIntegerComparison:
    """ Compares an integer field with one value.

        Attributes:
            field_name (DeliveryIntegerComparisonFieldName):
            operator (DeliveryIntegerComparisonOperator):
            value (int):
     """

    field_name: DeliveryIntegerComparisonFieldName
    operator: DeliveryIntegerComparisonOperator
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
        field_name = DeliveryIntegerComparisonFieldName(d.pop("fieldName"))




        operator = DeliveryIntegerComparisonOperator(d.pop("operator"))




        value = d.pop("value")

        delivery_integer_comparison = cls(
            field_name=field_name,
            operator=operator,
            value=value,
        )

        return delivery_integer_comparison

