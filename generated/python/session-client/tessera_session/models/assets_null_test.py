from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.assets_field import AssetsField
from ..models.null_test_operator import NullTestOperator






T = TypeVar("T", bound="AssetsNullTest")



@_attrs_define
class AssetsNullTest:
    """ The field is (not) empty; no value.

        Attributes:
            field_name (AssetsField): A field of the list: to sort on, or to test for empty.
            operator (NullTestOperator): The field is (not) empty.
     """

    field_name: AssetsField
    operator: NullTestOperator





    def to_dict(self) -> dict[str, Any]:
        field_name = self.field_name.value

        operator = self.operator.value


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "fieldName": field_name,
            "operator": operator,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        field_name = AssetsField(d.pop("fieldName"))




        operator = NullTestOperator(d.pop("operator"))




        assets_null_test = cls(
            field_name=field_name,
            operator=operator,
        )

        return assets_null_test

