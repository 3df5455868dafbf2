from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="RobotFleetInventoryReceivedV1")



@_attrs_define
class RobotFleetInventoryReceivedV1:
    """ `data` of `inventory.received`, schemaVersion 1.

        Example:
            {'sku': 'SKU-4417-0032', 'quantity': 3, 'warehouse': 'north'}

        Attributes:
            sku (str):
            quantity (int):
            warehouse (str):
     """

    sku: str
    quantity: int
    warehouse: str





    def to_dict(self) -> dict[str, Any]:
        sku = self.sku

        quantity = self.quantity

        warehouse = self.warehouse


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "sku": sku,
            "quantity": quantity,
            "warehouse": warehouse,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        sku = d.pop("sku")

        quantity = d.pop("quantity")

        warehouse = d.pop("warehouse")

        robot_fleet_inventory_received_v1 = cls(
            sku=sku,
            quantity=quantity,
            warehouse=warehouse,
        )

        return robot_fleet_inventory_received_v1

