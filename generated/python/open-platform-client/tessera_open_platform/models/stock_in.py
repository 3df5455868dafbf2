from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="StockIn")



@_attrs_define
class StockIn:
    """ A published `inventory.stock-ins` record.

        Example:
            {'pid': 'rec_0c4m8n2p6r0t4v8x2z6b0d4f8h', 'sku': 'SKU-4417-0032', 'quantity': 24, 'warehouse': 'north',
                'receivedAt': '2026-11-21T14:30:00.000Z', 'source': 'erp', 'createdAt': '2026-11-20T09:15:00.000Z', 'updatedAt':
                '2026-11-20T09:15:00.000Z'}

        Attributes:
            pid (str): Stable public id. Example: rec_0c4m8n2p6r0t4v8x2z6b0d4f8h.
            sku (str): SKU
            quantity (int | None): Quantity
            warehouse (None | str): Warehouse
            received_at (datetime.datetime | None): Received at
            source (None | str): Source
            created_at (datetime.datetime): When the record was created.
            updated_at (datetime.datetime): When the record last changed.
     """

    pid: str
    sku: str
    quantity: int | None
    warehouse: None | str
    received_at: datetime.datetime | None
    source: None | str
    created_at: datetime.datetime
    updated_at: datetime.datetime
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

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "pid": pid,
            "sku": sku,
            "quantity": quantity,
            "warehouse": warehouse,
            "receivedAt": received_at,
            "source": source,
            "createdAt": created_at,
            "updatedAt": updated_at,
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


        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))




        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))




        stock_in = cls(
            pid=pid,
            sku=sku,
            quantity=quantity,
            warehouse=warehouse,
            received_at=received_at,
            source=source,
            created_at=created_at,
            updated_at=updated_at,
        )


        stock_in.additional_properties = d
        return stock_in

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
