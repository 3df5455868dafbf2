from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.comparison_operator import ComparisonOperator
from ..models.delivery_integer_field import DeliveryIntegerField






T = TypeVar("T", bound="DeliveryIntegerComparison")



@_attrs_define
class DeliveryIntegerComparison:
    """ Compares an integer field with one value.

        Attributes:
            field_name (DeliveryIntegerField): A field compared with an integer value.
            operator (ComparisonOperator): Compares a field with one value.
            value (int): A integer a filter compares with.
     """

    field_name: DeliveryIntegerField
    operator: ComparisonOperator
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
        field_name = DeliveryIntegerField(d.pop("fieldName"))




        operator = ComparisonOperator(d.pop("operator"))




        value = d.pop("value")

        delivery_integer_comparison = cls(
            field_name=field_name,
            operator=operator,
            value=value,
        )

        return delivery_integer_comparison

