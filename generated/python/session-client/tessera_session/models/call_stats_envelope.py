from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.call_stats import CallStats





T = TypeVar("T", bound="CallStatsEnvelope")



@_attrs_define
class CallStatsEnvelope:
    """ 
        Example:
            {'code': '0', 'message': 'OK', 'data': {'installationId': 'ins_tem0n4ppxp001k9644h7d5v225', 'window': '24h',
                'from': '2026-11-21T09:00:00.000Z', 'to': '2026-11-22T09:00:00.000Z', 'buckets': [{'hour':
                '2026-11-22T08:00:00.000Z', 'total': 3, 'status2xx': 2, 'status3xx': 0, 'status4xx': 1, 'status5xx': 0,
                'statuses': {'200': 2, '404': 1}}]}}

        Attributes:
            code (str): `"0"` on success, otherwise an error code. Example: 0.
            message (str): Human-readable, translated; never branch on it. Example: OK.
            data (CallStats): An installation's audited Open Platform calls per hour over a window, oldest hour first.
                Example: {'installationId': 'ins_tem0n4ppxp001k9644h7d5v225', 'window': '24h', 'from':
                '2026-11-21T09:00:00.000Z', 'to': '2026-11-22T09:00:00.000Z', 'buckets': [{'hour': '2026-11-22T08:00:00.000Z',
                'total': 3, 'status2xx': 2, 'status3xx': 0, 'status4xx': 1, 'status5xx': 0, 'statuses': {'200': 2, '404': 1}}]}.
     """

    code: str
    message: str
    data: CallStats
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.call_stats import CallStats # noqa: PLC0415
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
        from ..models.call_stats import CallStats # noqa: PLC0415
        d = dict(src_dict)
        code = d.pop("code")

        message = d.pop("message")

        data = CallStats.from_dict(d.pop("data"))




        call_stats_envelope = cls(
            code=code,
            message=message,
            data=data,
        )


        call_stats_envelope.additional_properties = d
        return call_stats_envelope

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
