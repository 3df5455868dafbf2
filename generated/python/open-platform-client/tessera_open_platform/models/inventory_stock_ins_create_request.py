from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.inventory_stock_ins_create_input import InventoryStockInsCreateInput





T = TypeVar("T", bound="InventoryStockInsCreateRequest")



@_attrs_define
class InventoryStockInsCreateRequest:
    """ Request body of `inventory.stock-ins.create`.

        Example:
            {'input': {'sku': 'SKU-4417-0032', 'quantity': 24, 'warehouse': 'north', 'receivedAt':
                '2026-11-22T07:45:00.000Z'}}

        Attributes:
            input_ (InventoryStockInsCreateInput): Input of `inventory.stock-ins.create`. Example: {'sku': 'SKU-4417-0032',
                'quantity': 24, 'warehouse': 'north', 'receivedAt': '2026-11-22T07:45:00.000Z'}.
     """

    input_: InventoryStockInsCreateInput





    def to_dict(self) -> dict[str, Any]:
        from ..models.inventory_stock_ins_create_input import InventoryStockInsCreateInput # noqa: PLC0415
        input_ = self.input_.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "input": input_,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.inventory_stock_ins_create_input import InventoryStockInsCreateInput # noqa: PLC0415
        d = dict(src_dict)
        input_ = InventoryStockInsCreateInput.from_dict(d.pop("input"))




        inventory_stock_ins_create_request = cls(
            input_=input_,
        )

        return inventory_stock_ins_create_request

