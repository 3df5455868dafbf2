from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.webhook_endpoint_integer_comparison_field_name import WebhookEndpointIntegerComparisonFieldName
from ..models.webhook_endpoint_integer_comparison_operator import WebhookEndpointIntegerComparisonOperator






T = TypeVar("T", bound="WebhookEndpointIntegerComparison")



@_attrs_define
class WebhookEndpointIntegerComparison:
    """ Compares an integer field with one value.

        Attributes:
            field_name (WebhookEndpointIntegerComparisonFieldName):
            operator (WebhookEndpointIntegerComparisonOperator):
            value (int):
     """

    field_name: WebhookEndpointIntegerComparisonFieldName
    operator: WebhookEndpointIntegerComparisonOperator
    value: int





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
        field_name = WebhookEndpointIntegerComparisonFieldName(d.pop("fieldName"))




        operator = WebhookEndpointIntegerComparisonOperator(d.pop("operator"))




        value = d.pop("value")

        webhook_endpoint_integer_comparison = cls(
            field_name=field_name,
            operator=operator,
            value=value,
        )

        return webhook_endpoint_integer_comparison

