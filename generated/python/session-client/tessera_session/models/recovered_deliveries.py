from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="RecoveredDeliveries")



@_attrs_define
class RecoveredDeliveries:
    """ 
        Example:
            {'recovered': 42, 'more': False}

        Attributes:
            recovered (int): Deliveries queued again by this call.
            more (bool): True when further dead or retrying deliveries since that time remain.
     """

    recovered: int
    more: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        recovered = self.recovered

        more = self.more


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "recovered": recovered,
            "more": more,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        recovered = d.pop("recovered")

        more = d.pop("more")

        recovered_deliveries = cls(
            recovered=recovered,
            more=more,
        )


        recovered_deliveries.additional_properties = d
        return recovered_deliveries

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
