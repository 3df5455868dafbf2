from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.comparison_operator import ComparisonOperator
from ..models.member_text_field import MemberTextField






T = TypeVar("T", bound="MemberTextComparison")



@_attrs_define
class MemberTextComparison:
    """ Compares a text field with one value.

        Attributes:
            field_name (MemberTextField): A field compared with a text value.
            operator (ComparisonOperator): Compares a field with one value.
            value (str): A text a filter compares with.
     """

    field_name: MemberTextField
    operator: ComparisonOperator
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
        field_name = MemberTextField(d.pop("fieldName"))




        operator = ComparisonOperator(d.pop("operator"))




        value = d.pop("value")

        member_text_comparison = cls(
            field_name=field_name,
            operator=operator,
            value=value,
        )

        return member_text_comparison

