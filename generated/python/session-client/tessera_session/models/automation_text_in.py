from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.automation_text_field import AutomationTextField
from ..models.set_operator import SetOperator
from typing import cast






T = TypeVar("T", bound="AutomationTextIn")



@_attrs_define
class AutomationTextIn:
    """ The text field is (not) one of 1 to 100 values; `not_in` also matches empty ones.

        Attributes:
            field_name (AutomationTextField): A field compared with a text value.
            operator (SetOperator): The field is (not) one of the values; `not_in` also matches empty ones.
            value (list[str]):
     """

    field_name: AutomationTextField
    operator: SetOperator
    value: list[str]





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
        field_name = AutomationTextField(d.pop("fieldName"))




        operator = SetOperator(d.pop("operator"))




        value = cast(list[str], d.pop("value"))


        automation_text_in = cls(
            field_name=field_name,
            operator=operator,
            value=value,
        )

        return automation_text_in

