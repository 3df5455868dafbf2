from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="StockIn")



@_attrs_define
class StockIn:
    """ A `stockIn` record (Stock-in).

        Attributes:
            id (str): Public id (random, never a database id). Example: rec_0c4m8n2p6r0t4v8x2z6b0d4f8h.
            sku (str): SKU
            created_at (datetime.datetime): When the record was created.
            updated_at (datetime.datetime): When the record last changed.
            quantity (int | None | Unset): Quantity
            warehouse (None | str | Unset): Warehouse
            received_at (datetime.datetime | None | Unset): Received at
            source (None | str | Unset): Source
     """

    id: str
    sku: str
    created_at: datetime.datetime
    updated_at: datetime.datetime
    quantity: int | None | Unset = UNSET
    warehouse: None | str | Unset = UNSET
    received_at: datetime.datetime | None | Unset = UNSET
    source: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        sku = self.sku

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        quantity: int | None | Unset
        if isinstance(self.quantity, Unset):
            quantity = UNSET
        else:
            quantity = self.quantity

        warehouse: None | str | Unset
        if isinstance(self.warehouse, Unset):
            warehouse = UNSET
        else:
            warehouse = self.warehouse

        received_at: None | str | Unset
        if isinstance(self.received_at, Unset):
            received_at = UNSET
        elif isinstance(self.received_at, datetime.datetime):
            received_at = self.received_at.isoformat()
        else:
            received_at = self.received_at

        source: None | str | Unset
        if isinstance(self.source, Unset):
            source = UNSET
        else:
            source = self.source


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "sku": sku,
            "created_at": created_at,
            "updated_at": updated_at,
        })
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
        id = d.pop("id")

        sku = d.pop("sku")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))




        def _parse_quantity(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        quantity = _parse_quantity(d.pop("quantity", UNSET))


        def _parse_warehouse(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        warehouse = _parse_warehouse(d.pop("warehouse", UNSET))


        def _parse_received_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                received_at_type_0 = datetime.datetime.fromisoformat(data)



                return received_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        received_at = _parse_received_at(d.pop("receivedAt", UNSET))


        def _parse_source(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        source = _parse_source(d.pop("source", UNSET))


        stock_in = cls(
            id=id,
            sku=sku,
            created_at=created_at,
            updated_at=updated_at,
            quantity=quantity,
            warehouse=warehouse,
            received_at=received_at,
            source=source,
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
