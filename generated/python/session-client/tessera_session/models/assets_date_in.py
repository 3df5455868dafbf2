from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.assets_date_field import AssetsDateField
from ..models.set_operator import SetOperator
from typing import cast
import datetime






T = TypeVar("T", bound="AssetsDateIn")



@_attrs_define
class AssetsDateIn:
    """ The date field is (not) one of 1 to 100 values; `not_in` also matches empty ones.

        Attributes:
            field_name (AssetsDateField): A field compared with a date value.
            operator (SetOperator): The field is (not) one of the values; `not_in` also matches empty ones.
            value (list[datetime.date]):
     """

    field_name: AssetsDateField
    operator: SetOperator
    value: list[datetime.date]





    def to_dict(self) -> dict[str, Any]:
        field_name = self.field_name.value

        operator = self.operator.value

        value = []
        for value_item_data in self.value:
            value_item = value_item_data.isoformat()
            value.append(value_item)




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
        field_name = AssetsDateField(d.pop("fieldName"))




        operator = SetOperator(d.pop("operator"))




        value = []
        _value = d.pop("value")
        for value_item_data in (_value):
            value_item = datetime.date.fromisoformat(value_item_data)



            value.append(value_item)


        assets_date_in = cls(
            field_name=field_name,
            operator=operator,
            value=value,
        )

        return assets_date_in

