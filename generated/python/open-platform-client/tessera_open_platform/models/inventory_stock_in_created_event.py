from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.inventory_stock_in_created_event_schema_version import InventoryStockInCreatedEventSchemaVersion
from ..models.inventory_stock_in_created_event_type import InventoryStockInCreatedEventType
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.inventory_stock_in_created_payload import InventoryStockInCreatedPayload





T = TypeVar("T", bound="InventoryStockInCreatedEvent")



@_attrs_define
class InventoryStockInCreatedEvent:
    """ Body of a `inventory.stock-in.created` delivery. It never names the tenant.

        Example:
            {'id': 'evt_3f8k1m6p9r2t5v0x4z7b1d3f6h', 'type': 'inventory.stock-in.created', 'schemaVersion': 1, 'occurredAt':
                '2026-11-22T08:00:00.000Z', 'data': {'pid': 'rec_7h2k9m4p1r6t3v8x5z0b2d7f9g', 'sku': 'SKU-4417-0032',
                'quantity': 24, 'warehouse': 'north', 'receivedAt': '2026-11-22T07:45:00.000Z', 'source': 'open-platform'}}

        Attributes:
            id (str): Event id; retries and replays reuse it.
            type_ (InventoryStockInCreatedEventType):
            schema_version (InventoryStockInCreatedEventSchemaVersion):
            occurred_at (datetime.datetime): When the change happened.
            data (InventoryStockInCreatedPayload): `data` of the `inventory.stock-in.created` event. Example: {'pid':
                'rec_7h2k9m4p1r6t3v8x5z0b2d7f9g', 'sku': 'SKU-4417-0032', 'quantity': 24, 'warehouse': 'north', 'receivedAt':
                '2026-11-22T07:45:00.000Z', 'source': 'open-platform'}.
     """

    id: str
    type_: InventoryStockInCreatedEventType
    schema_version: InventoryStockInCreatedEventSchemaVersion
    occurred_at: datetime.datetime
    data: InventoryStockInCreatedPayload
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.inventory_stock_in_created_payload import InventoryStockInCreatedPayload # noqa: PLC0415
        id = self.id

        type_ = self.type_.value

        schema_version = self.schema_version.value

        occurred_at = self.occurred_at.isoformat()

        data = self.data.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "type": type_,
            "schemaVersion": schema_version,
            "occurredAt": occurred_at,
            "data": data,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.inventory_stock_in_created_payload import InventoryStockInCreatedPayload # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        type_ = InventoryStockInCreatedEventType(d.pop("type"))




        schema_version = InventoryStockInCreatedEventSchemaVersion(d.pop("schemaVersion"))




        occurred_at = datetime.datetime.fromisoformat(d.pop("occurredAt"))




        data = InventoryStockInCreatedPayload.from_dict(d.pop("data"))




        inventory_stock_in_created_event = cls(
            id=id,
            type_=type_,
            schema_version=schema_version,
            occurred_at=occurred_at,
            data=data,
        )


        inventory_stock_in_created_event.additional_properties = d
        return inventory_stock_in_created_event

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
