from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.delivery_text_field import DeliveryTextField
from ..models.like_operator import LikeOperator






T = TypeVar("T", bound="DeliveryTextLike")



@_attrs_define
class DeliveryTextLike:
    """ Case-insensitive substring of a text field (the first 1000 characters count).

        Attributes:
            field_name (DeliveryTextField): A field compared with a text value.
            operator (LikeOperator): Case-insensitive substring of a text field.
            value (str):
     """

    field_name: DeliveryTextField
    operator: LikeOperator
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
        field_name = DeliveryTextField(d.pop("fieldName"))




        operator = LikeOperator(d.pop("operator"))




        value = d.pop("value")

        delivery_text_like = cls(
            field_name=field_name,
            operator=operator,
            value=value,
        )

        return delivery_text_like

