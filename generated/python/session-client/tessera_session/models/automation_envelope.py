from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.automation import Automation





T = TypeVar("T", bound="AutomationEnvelope")



@_attrs_define
class AutomationEnvelope:
    """ 
        Example:
            {'code': '0', 'message': 'OK', 'data': {'automationId': 'aut_7m1q5v9z3c7g1k5p9t3x7b1f5j', 'name': 'Robot fleet
                receipts become stock-ins', 'trigger': {'source': 'robot-fleet', 'eventType': 'inventory.received'}, 'actions':
                [{'kind': 'sessionCommand', 'command': 'stock-ins:create', 'payload': {'sku': '$.data.sku', 'quantity':
                '$.data.quantity', 'warehouse': '$.data.warehouse', 'receivedAt': '$.occurredAt', 'source': 'robot-fleet'}}],
                'enabled': True, 'created_at': '2026-11-22T08:00:00.000Z', 'updated_at': '2026-11-22T08:00:00.000Z'}}

        Attributes:
            code (str): `"0"` on success, otherwise an error code. Example: 0.
            message (str): Human-readable, translated; never branch on it. Example: OK.
            data (Automation): An automation of the tenant. Example: {'automationId': 'aut_7m1q5v9z3c7g1k5p9t3x7b1f5j',
                'name': 'Robot fleet receipts become stock-ins', 'trigger': {'source': 'robot-fleet', 'eventType':
                'inventory.received'}, 'actions': [{'kind': 'sessionCommand', 'command': 'stock-ins:create', 'payload': {'sku':
                '$.data.sku', 'quantity': '$.data.quantity', 'warehouse': '$.data.warehouse', 'receivedAt': '$.occurredAt',
                'source': 'robot-fleet'}}], 'enabled': True, 'created_at': '2026-11-22T08:00:00.000Z', 'updated_at':
                '2026-11-22T08:00:00.000Z'}.
     """

    code: str
    message: str
    data: Automation
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.automation import Automation # noqa: PLC0415
        code = self.code

        message = self.message

        data = self.data.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "code": code,
            "message": message,
            "data": data,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.automation import Automation # noqa: PLC0415
        d = dict(src_dict)
        code = d.pop("code")

        message = d.pop("message")

        data = Automation.from_dict(d.pop("data"))




        automation_envelope = cls(
            code=code,
            message=message,
            data=data,
        )


        automation_envelope.additional_properties = d
        return automation_envelope

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
