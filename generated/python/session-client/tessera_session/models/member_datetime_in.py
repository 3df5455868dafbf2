from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.member_datetime_field import MemberDatetimeField
from ..models.set_operator import SetOperator
from typing import cast
import datetime






T = TypeVar("T", bound="MemberDatetimeIn")



@_attrs_define
class MemberDatetimeIn:
    """ The datetime field is (not) one of 1 to 100 values; `not_in` also matches empty ones.

        Attributes:
            field_name (MemberDatetimeField): A field compared with a datetime value.
            operator (SetOperator): The field is (not) one of the values; `not_in` also matches empty ones.
            value (list[datetime.datetime]):
     """

    field_name: MemberDatetimeField
    operator: SetOperator
    value: list[datetime.datetime]





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
        field_name = MemberDatetimeField(d.pop("fieldName"))




        operator = SetOperator(d.pop("operator"))




        value = []
        _value = d.pop("value")
        for value_item_data in (_value):
            value_item = datetime.datetime.fromisoformat(value_item_data)



            value.append(value_item)


        member_datetime_in = cls(
            field_name=field_name,
            operator=operator,
            value=value,
        )

        return member_datetime_in

