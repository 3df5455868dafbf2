from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.replayed_delivery_status import ReplayedDeliveryStatus






T = TypeVar("T", bound="ReplayedDelivery")



@_attrs_define
class ReplayedDelivery:
    """ 
        Example:
            {'deliveryId': 'dlv_8c3n6q1v4x7z0b2d5f8h1k4m7p', 'status': 'pending'}

        Attributes:
            delivery_id (str):
            status (ReplayedDeliveryStatus):
     """

    delivery_id: str
    status: ReplayedDeliveryStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        delivery_id = self.delivery_id

        status = self.status.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "deliveryId": delivery_id,
            "status": status,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        delivery_id = d.pop("deliveryId")

        status = ReplayedDeliveryStatus(d.pop("status"))




        replayed_delivery = cls(
            delivery_id=delivery_id,
            status=status,
        )


        replayed_delivery.additional_properties = d
        return replayed_delivery

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
