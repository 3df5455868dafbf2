from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="InventoryStockInCreatedPayload")



@_attrs_define
class InventoryStockInCreatedPayload:
    """ `data` of the `inventory.stock-in.created` event.

        Example:
            {'pid': 'rec_7h2k9m4p1r6t3v8x5z0b2d7f9g', 'sku': 'SKU-4417-0032', 'quantity': 24, 'warehouse': 'north',
                'receivedAt': '2026-11-22T07:45:00.000Z', 'source': 'open-platform'}

        Attributes:
            pid (str): pid of the `inventory.stock-ins` record.
            sku (str): SKU
            quantity (int | None): Quantity
            warehouse (None | str): Warehouse
            received_at (datetime.datetime | None): Received at
            source (None | str): Source
     """

    pid: str
    sku: str
    quantity: int | None
    warehouse: None | str
    received_at: datetime.datetime | None
    source: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        pid = self.pid

        sku = self.sku

        quantity: int | None
        quantity = self.quantity

        warehouse: None | str
        warehouse = self.warehouse

        received_at: None | str
        if isinstance(self.received_at, datetime.datetime):
            received_at = self.received_at.isoformat()
        else:
            received_at = self.received_at

        source: None | str
        source = self.source


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "pid": pid,
            "sku": sku,
            "quantity": quantity,
            "warehouse": warehouse,
            "receivedAt": received_at,
            "source": source,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        pid = d.pop("pid")

        sku = d.pop("sku")

        def _parse_quantity(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        quantity = _parse_quantity(d.pop("quantity"))


        def _parse_warehouse(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        warehouse = _parse_warehouse(d.pop("warehouse"))


        def _parse_received_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                received_at_type_0 = datetime.datetime.fromisoformat(data)



                return received_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        received_at = _parse_received_at(d.pop("receivedAt"))


        def _parse_source(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        source = _parse_source(d.pop("source"))


        inventory_stock_in_created_payload = cls(
            pid=pid,
            sku=sku,
            quantity=quantity,
            warehouse=warehouse,
            received_at=received_at,
            source=source,
        )


        inventory_stock_in_created_payload.additional_properties = d
        return inventory_stock_in_created_payload

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
