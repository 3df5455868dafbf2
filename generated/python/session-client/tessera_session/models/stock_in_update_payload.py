from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="StockInUpdatePayload")



@_attrs_define
class StockInUpdatePayload:
    """ The `stockIn` fields to change; the others keep their values.

        Attributes:
            sku (str | Unset): SKU
            quantity (int | Unset): Quantity
            warehouse (str | Unset): Warehouse
            received_at (datetime.datetime | Unset): Received at
            source (str | Unset): Source
     """

    sku: str | Unset = UNSET
    quantity: int | Unset = UNSET
    warehouse: str | Unset = UNSET
    received_at: datetime.datetime | Unset = UNSET
    source: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        sku = self.sku

        quantity = self.quantity

        warehouse = self.warehouse

        received_at: str | Unset = UNSET
        if not isinstance(self.received_at, Unset):
            received_at = self.received_at.isoformat()

        source = self.source


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
        if source is not UNSET:
            field_dict["source"] = source

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        sku = d.pop("sku", UNSET)

        quantity = d.pop("quantity", UNSET)

        warehouse = d.pop("warehouse", UNSET)

        _received_at = d.pop("receivedAt", UNSET)
        received_at: datetime.datetime | Unset
        if isinstance(_received_at,  Unset):
            received_at = UNSET
        else:
            received_at = datetime.datetime.fromisoformat(_received_at)




        source = d.pop("source", UNSET)

        stock_in_update_payload = cls(
            sku=sku,
            quantity=quantity,
            warehouse=warehouse,
            received_at=received_at,
            source=source,
        )

        return stock_in_update_payload

