from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.assets_date_comparison_field_name import AssetsDateComparisonFieldName
from ..models.assets_date_comparison_operator import AssetsDateComparisonOperator
from typing import cast
import datetime






T = TypeVar("T", bound="AssetsDateComparison")



@_attrs_define
class AssetsDateComparison:
    """ Compares a date field with one value.

        Attributes:
            field_name (AssetsDateComparisonFieldName):
            operator (AssetsDateComparisonOperator):
            value (datetime.date):
     """

    field_name: AssetsDateComparisonFieldName
    operator: AssetsDateComparisonOperator
    value: datetime.date





    def to_dict(self) -> dict[str, Any]:
        field_name = self.field_name.value

        operator = self.operator.value

        value = self.value.isoformat()


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
        field_name = AssetsDateComparisonFieldName(d.pop("fieldName"))




        operator = AssetsDateComparisonOperator(d.pop("operator"))




        value = datetime.date.fromisoformat(d.pop("value"))




        assets_date_comparison = cls(
            field_name=field_name,
            operator=operator,
            value=value,
        )

        return assets_date_comparison

