from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.inventory_stock_ins_create_result_command_code import InventoryStockInsCreateResultCommandCode
from typing import cast

if TYPE_CHECKING:
  from ..models.stock_in import StockIn





T = TypeVar("T", bound="InventoryStockInsCreateResult")



@_attrs_define
class InventoryStockInsCreateResult:
    """ Result of `inventory.stock-ins.create`: the record as the command left it.

        Example:
            {'commandCode': 'inventory.stock-ins.create', 'idempotentReplay': False, 'record': {'pid':
                'rec_7h2k9m4p1r6t3v8x5z0b2d7f9g', 'sku': 'SKU-4417-0032', 'quantity': 24, 'warehouse': 'north', 'receivedAt':
                '2026-11-22T07:45:00.000Z', 'source': 'open-platform', 'createdAt': '2026-11-22T08:00:00.000Z', 'updatedAt':
                '2026-11-22T08:00:00.000Z'}}

        Attributes:
            command_code (InventoryStockInsCreateResultCommandCode):
            idempotent_replay (bool): True when this is the stored result of an earlier request with the same key.
            record (StockIn): A published `inventory.stock-ins` record. Example: {'pid': 'rec_0c4m8n2p6r0t4v8x2z6b0d4f8h',
                'sku': 'SKU-4417-0032', 'quantity': 24, 'warehouse': 'north', 'receivedAt': '2026-11-21T14:30:00.000Z',
                'source': 'erp', 'createdAt': '2026-11-20T09:15:00.000Z', 'updatedAt': '2026-11-20T09:15:00.000Z'}.
     """

    command_code: InventoryStockInsCreateResultCommandCode
    idempotent_replay: bool
    record: StockIn
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.stock_in import StockIn # noqa: PLC0415
        command_code = self.command_code.value

        idempotent_replay = self.idempotent_replay

        record = self.record.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "commandCode": command_code,
            "idempotentReplay": idempotent_replay,
            "record": record,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.stock_in import StockIn # noqa: PLC0415
        d = dict(src_dict)
        command_code = InventoryStockInsCreateResultCommandCode(d.pop("commandCode"))




        idempotent_replay = d.pop("idempotentReplay")

        record = StockIn.from_dict(d.pop("record"))




        inventory_stock_ins_create_result = cls(
            command_code=command_code,
            idempotent_replay=idempotent_replay,
            record=record,
        )


        inventory_stock_ins_create_result.additional_properties = d
        return inventory_stock_ins_create_result

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
