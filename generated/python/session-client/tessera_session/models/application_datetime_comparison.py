from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.application_datetime_field import ApplicationDatetimeField
from ..models.comparison_operator import ComparisonOperator
from typing import cast
import datetime






T = TypeVar("T", bound="ApplicationDatetimeComparison")



@_attrs_define
class ApplicationDatetimeComparison:
    """ Compares a datetime field with one value.

        Attributes:
            field_name (ApplicationDatetimeField): A field compared with a datetime value.
            operator (ComparisonOperator): Compares a field with one value.
            value (datetime.datetime): A timestamp a filter compares with.
     """

    field_name: ApplicationDatetimeField
    operator: ComparisonOperator
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
        field_name = ApplicationDatetimeField(d.pop("fieldName"))




        operator = ComparisonOperator(d.pop("operator"))




        value = datetime.datetime.fromisoformat(d.pop("value"))




        application_datetime_comparison = cls(
            field_name=field_name,
            operator=operator,
            value=value,
        )

        return application_datetime_comparison

