from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.assets_assign_result_command_code import AssetsAssignResultCommandCode
from typing import cast

if TYPE_CHECKING:
  from ..models.asset import Asset





T = TypeVar("T", bound="AssetsAssignResult")



@_attrs_define
class AssetsAssignResult:
    """ Result of `assets.assign`: the record as the command left it.

        Example:
            {'commandCode': 'assets.assign', 'idempotentReplay': False, 'record': {'pid': 'rec_0c4m8n2p6r0t4v8x2z6b0d4f8h',
                'name': 'ThinkPad X1 Carbon', 'serialNo': 'DEMO-SN-000117', 'status': 'assigned', 'assignee': 'Dana Whitfield',
                'value': 1899.5, 'purchasedAt': '2025-03-18', 'createdAt': '2026-11-20T09:15:00.000Z', 'updatedAt':
                '2026-11-22T08:00:00.000Z'}}

        Attributes:
            command_code (AssetsAssignResultCommandCode):
            idempotent_replay (bool): True when this is the stored result of an earlier request with the same key.
            record (Asset): A published `assets` record. Example: {'pid': 'rec_0c4m8n2p6r0t4v8x2z6b0d4f8h', 'name':
                'ThinkPad X1 Carbon', 'serialNo': 'DEMO-SN-000117', 'status': 'in_stock', 'assignee': None, 'value': 1899.5,
                'purchasedAt': '2025-03-18', 'createdAt': '2026-11-20T09:15:00.000Z', 'updatedAt': '2026-11-20T09:15:00.000Z'}.
     """

    command_code: AssetsAssignResultCommandCode
    idempotent_replay: bool
    record: Asset
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.asset import Asset # noqa: PLC0415
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
        from ..models.asset import Asset # noqa: PLC0415
        d = dict(src_dict)
        command_code = AssetsAssignResultCommandCode(d.pop("commandCode"))




        idempotent_replay = d.pop("idempotentReplay")

        record = Asset.from_dict(d.pop("record"))




        assets_assign_result = cls(
            command_code=command_code,
            idempotent_replay=idempotent_replay,
            record=record,
        )


        assets_assign_result.additional_properties = d
        return assets_assign_result

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
