from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.automation_integer_comparison_field_name import AutomationIntegerComparisonFieldName
from ..models.automation_integer_comparison_operator import AutomationIntegerComparisonOperator






T = TypeVar("T", bound="AutomationIntegerComparison")



@_attrs_define
class AutomationIntegerComparison:
    """ Compares an integer field with one value.

        Attributes:
            field_name (AutomationIntegerComparisonFieldName):
            operator (AutomationIntegerComparisonOperator):
            value (int):
     """

    field_name: AutomationIntegerComparisonFieldName
    operator: AutomationIntegerComparisonOperator
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
        field_name = AutomationIntegerComparisonFieldName(d.pop("fieldName"))




        operator = AutomationIntegerComparisonOperator(d.pop("operator"))




        value = d.pop("value")

        automation_integer_comparison = cls(
            field_name=field_name,
            operator=operator,
            value=value,
        )

        return automation_integer_comparison

