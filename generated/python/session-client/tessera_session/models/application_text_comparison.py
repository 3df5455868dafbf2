from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.application_text_comparison_field_name import ApplicationTextComparisonFieldName
from ..models.application_text_comparison_operator import ApplicationTextComparisonOperator






T = TypeVar("T", bound="ApplicationTextComparison")



@_attrs_define
class ApplicationTextComparison:
    """ Compares a text field with one value.

        Attributes:
            field_name (ApplicationTextComparisonFieldName):
            operator (ApplicationTextComparisonOperator):
            value (str):
     """

    field_name: ApplicationTextComparisonFieldName
    operator: ApplicationTextComparisonOperator
    value: str





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
        field_name = ApplicationTextComparisonFieldName(d.pop("fieldName"))




        operator = ApplicationTextComparisonOperator(d.pop("operator"))




        value = d.pop("value")

        application_text_comparison = cls(
            field_name=field_name,
            operator=operator,
            value=value,
        )

        return application_text_comparison

