from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.installation_events import InstallationEvents





T = TypeVar("T", bound="InstallationEventsEnvelope")



@_attrs_define
class InstallationEventsEnvelope:
    """ 
        Example:
            {'code': '0', 'message': 'OK', 'data': {'installationId': 'ins_tem0n4ppxp001k9644h7d5v225', 'records': [{'id':
                'evt_3f8k1m6p9r2t5v0x4z7b1d3f6h', 'type': 'assets.assignment.changed', 'schemaVersion': 1, 'occurredAt':
                '2026-11-22T08:00:00.000Z', 'data': {'pid': 'rec_0c4m8n2p6r0t4v8x2z6b0d4f8h', 'assignee': 'Dana Whitfield',
                'status': 'assigned', 'previousAssignee': None}}], 'nextBefore': None}}

        Attributes:
            code (str): `"0"` on success, otherwise an error code. Example: 0.
            message (str): Human-readable, translated; never branch on it. Example: OK.
            data (InstallationEvents): Object, array or null.
     """

    code: str
    message: str
    data: InstallationEvents
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.installation_events import InstallationEvents # noqa: PLC0415
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
        from ..models.installation_events import InstallationEvents # noqa: PLC0415
        d = dict(src_dict)
        code = d.pop("code")

        message = d.pop("message")

        data = InstallationEvents.from_dict(d.pop("data"))




        installation_events_envelope = cls(
            code=code,
            message=message,
            data=data,
        )


        installation_events_envelope.additional_properties = d
        return installation_events_envelope

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
