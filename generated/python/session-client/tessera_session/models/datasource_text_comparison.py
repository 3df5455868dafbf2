from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.datasource_text_comparison_field_name import DatasourceTextComparisonFieldName
from ..models.datasource_text_comparison_operator import DatasourceTextComparisonOperator






T = TypeVar("T", bound="DatasourceTextComparison")



@_attrs_define
class DatasourceTextComparison:
    """ Compares a text field with one value.

        Attributes:
            field_name (DatasourceTextComparisonFieldName):
            operator (DatasourceTextComparisonOperator):
            value (str):
     """

    field_name: DatasourceTextComparisonFieldName
    operator: DatasourceTextComparisonOperator
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
        field_name = DatasourceTextComparisonFieldName(d.pop("fieldName"))




        operator = DatasourceTextComparisonOperator(d.pop("operator"))




        value = d.pop("value")

        datasource_text_comparison = cls(
            field_name=field_name,
            operator=operator,
            value=value,
        )

        return datasource_text_comparison

