from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="StockInsCreateSessionActionPayload")



@_attrs_define
class StockInsCreateSessionActionPayload:
    """ The `stockIn` fields to write.

        Attributes:
            sku (bool | float | str | Unset): A constant (text, a number or a boolean), or an event path
                (`$.data.<field>`...).
            quantity (bool | float | str | Unset): A constant (text, a number or a boolean), or an event path
                (`$.data.<field>`...).
            warehouse (bool | float | str | Unset): A constant (text, a number or a boolean), or an event path
                (`$.data.<field>`...).
            received_at (bool | float | str | Unset): A constant (text, a number or a boolean), or an event path
                (`$.data.<field>`...).
            source (bool | float | str | Unset): A constant (text, a number or a boolean), or an event path
                (`$.data.<field>`...).
     """

    sku: bool | float | str | Unset = UNSET
    quantity: bool | float | str | Unset = UNSET
    warehouse: bool | float | str | Unset = UNSET
    received_at: bool | float | str | Unset = UNSET
    source: bool | float | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        sku: bool | float | str | Unset
        if isinstance(self.sku, Unset):
            sku = UNSET
        else:
            sku = self.sku

        quantity: bool | float | str | Unset
        if isinstance(self.quantity, Unset):
            quantity = UNSET
        else:
            quantity = self.quantity

        warehouse: bool | float | str | Unset
        if isinstance(self.warehouse, Unset):
            warehouse = UNSET
        else:
            warehouse = self.warehouse

        received_at: bool | float | str | Unset
        if isinstance(self.received_at, Unset):
            received_at = UNSET
        else:
            received_at = self.received_at

        source: bool | float | str | Unset
        if isinstance(self.source, Unset):
            source = UNSET
        else:
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
        def _parse_sku(data: object) -> bool | float | str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(bool | float | str | Unset, data)

        sku = _parse_sku(d.pop("sku", UNSET))


        def _parse_quantity(data: object) -> bool | float | str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(bool | float | str | Unset, data)

        quantity = _parse_quantity(d.pop("quantity", UNSET))


        def _parse_warehouse(data: object) -> bool | float | str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(bool | float | str | Unset, data)

        warehouse = _parse_warehouse(d.pop("warehouse", UNSET))


        def _parse_received_at(data: object) -> bool | float | str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(bool | float | str | Unset, data)

        received_at = _parse_received_at(d.pop("receivedAt", UNSET))


        def _parse_source(data: object) -> bool | float | str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(bool | float | str | Unset, data)

        source = _parse_source(d.pop("source", UNSET))


        stock_ins_create_session_action_payload = cls(
            sku=sku,
            quantity=quantity,
            warehouse=warehouse,
            received_at=received_at,
            source=source,
        )

        return stock_ins_create_session_action_payload

