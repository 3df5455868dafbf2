from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.automation_datetime_comparison_field_name import AutomationDatetimeComparisonFieldName
from ..models.automation_datetime_comparison_operator import AutomationDatetimeComparisonOperator
from typing import cast
import datetime






T = TypeVar("T", bound="AutomationDatetimeComparison")



@_attrs_define
class AutomationDatetimeComparison:
    """ Compares a datetime field with one value.

        Attributes:
            field_name (AutomationDatetimeComparisonFieldName):
            operator (AutomationDatetimeComparisonOperator):
            value (datetime.datetime):
     """

    field_name: AutomationDatetimeComparisonFieldName
    operator: AutomationDatetimeComparisonOperator
    value: datetime.datetime





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
        field_name = AutomationDatetimeComparisonFieldName(d.pop("fieldName"))




        operator = AutomationDatetimeComparisonOperator(d.pop("operator"))




        value = datetime.datetime.fromisoformat(d.pop("value"))




        automation_datetime_comparison = cls(
            field_name=field_name,
            operator=operator,
            value=value,
        )

        return automation_datetime_comparison

