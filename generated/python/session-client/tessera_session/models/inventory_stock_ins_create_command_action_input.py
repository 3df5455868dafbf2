from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="InventoryStockInsCreateCommandActionInput")



@_attrs_define
class InventoryStockInsCreateCommandActionInput:
    """ The input of `inventory.stock-ins.create`.

        Attributes:
            sku (Any | Unset): A constant, or an event path (`$.data.<field>`, `$.occurredAt`...).
            quantity (Any | Unset): A constant, or an event path (`$.data.<field>`, `$.occurredAt`...).
            warehouse (Any | Unset): A constant, or an event path (`$.data.<field>`, `$.occurredAt`...).
            received_at (Any | Unset): A constant, or an event path (`$.data.<field>`, `$.occurredAt`...).
     """

    sku: Any | Unset = UNSET
    quantity: Any | Unset = UNSET
    warehouse: Any | Unset = UNSET
    received_at: Any | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        sku = self.sku

        quantity = self.quantity

        warehouse = self.warehouse

        received_at = self.received_at


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if sku is not UNSET:
            field_dict["sku"] = sku
        if quantity is not UNSET:
            field_dict["quantity"] = quantity
        if warehouse is not UNSET:
            field_dict["warehouse"] = warehouse
        if received_at is not UNSET:
            field_dict["receivedAt"] = received_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        sku = d.pop("sku", UNSET)

        quantity = d.pop("quantity", UNSET)

        warehouse = d.pop("warehouse", UNSET)

        received_at = d.pop("receivedAt", UNSET)

        inventory_stock_ins_create_command_action_input = cls(
            sku=sku,
            quantity=quantity,
            warehouse=warehouse,
            received_at=received_at,
        )

        return inventory_stock_ins_create_command_action_input

