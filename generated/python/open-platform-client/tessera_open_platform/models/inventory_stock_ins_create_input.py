from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="InventoryStockInsCreateInput")



@_attrs_define
class InventoryStockInsCreateInput:
    """ Input of `inventory.stock-ins.create`.

        Example:
            {'sku': 'SKU-4417-0032', 'quantity': 24, 'warehouse': 'north', 'receivedAt': '2026-11-22T07:45:00.000Z'}

        Attributes:
            sku (str):
            quantity (int):
            warehouse (str | Unset):
            received_at (datetime.datetime | Unset):
     """

    sku: str
    quantity: int
    warehouse: str | Unset = UNSET
    received_at: datetime.datetime | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        sku = self.sku

        quantity = self.quantity

        warehouse = self.warehouse

        received_at: str | Unset = UNSET
        if not isinstance(self.received_at, Unset):
            received_at = self.received_at.isoformat()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "sku": sku,
            "quantity": quantity,
        })
        if warehouse is not UNSET:
            field_dict["warehouse"] = warehouse
        if received_at is not UNSET:
            field_dict["receivedAt"] = received_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        sku = d.pop("sku")

        quantity = d.pop("quantity")

        warehouse = d.pop("warehouse", UNSET)

        _received_at = d.pop("receivedAt", UNSET)
        received_at: datetime.datetime | Unset
        if isinstance(_received_at,  Unset):
            received_at = UNSET
        else:
            received_at = datetime.datetime.fromisoformat(_received_at)




        inventory_stock_ins_create_input = cls(
            sku=sku,
            quantity=quantity,
            warehouse=warehouse,
            received_at=received_at,
        )

        return inventory_stock_ins_create_input

