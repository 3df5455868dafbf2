from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.audit_text_comparison_field_name import AuditTextComparisonFieldName
from ..models.audit_text_comparison_operator import AuditTextComparisonOperator






T = TypeVar("T", bound="AuditTextComparison")



@_attrs_define
class AuditTextComparison:
    """ Compares a text field with one value.

        Attributes:
            field_name (AuditTextComparisonFieldName):
            operator (AuditTextComparisonOperator):
            value (str):
     """

    field_name: AuditTextComparisonFieldName
    operator: AuditTextComparisonOperator
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
        field_name = AuditTextComparisonFieldName(d.pop("fieldName"))




        operator = AuditTextComparisonOperator(d.pop("operator"))




        value = d.pop("value")

        audit_text_comparison = cls(
            field_name=field_name,
            operator=operator,
            value=value,
        )

        return audit_text_comparison

