from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.datasource_null_test_field_name import DatasourceNullTestFieldName
from ..models.datasource_null_test_operator import DatasourceNullTestOperator






T = TypeVar("T", bound="DatasourceNullTest")



@_attrs_define
class DatasourceNullTest:
    """ The field is (not) empty; no value.

        Attributes:
            field_name (DatasourceNullTestFieldName):
            operator (DatasourceNullTestOperator):
     """

    field_name: DatasourceNullTestFieldName
    operator: DatasourceNullTestOperator





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
        field_name = DatasourceNullTestFieldName(d.pop("fieldName"))




        operator = DatasourceNullTestOperator(d.pop("operator"))




        datasource_null_test = cls(
            field_name=field_name,
            operator=operator,
        )

        return datasource_null_test

