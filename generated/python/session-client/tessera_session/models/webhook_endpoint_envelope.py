from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.webhook_endpoint import WebhookEndpoint





T = TypeVar("T", bound="WebhookEndpointEnvelope")



@_attrs_define
class WebhookEndpointEnvelope:
    """ 
        Example:
            {'code': '0', 'message': 'OK', 'data': {'endpointId': 'whe_5n2k8q4x0c6v1b7m3z9w5r1t8y', 'installationId':
                'ins_tem0n4ppxp001k9644h7d5v225', 'url': 'https://hooks.fleet.example/tessera', 'eventTypes': ['inventory.stock-
                in.created'], 'enabled': False, 'signatureFormat': 'tessera', 'created_at': '2026-11-22T08:00:00.000Z',
                'updated_at': '2026-11-22T09:30:00.000Z'}}

        Attributes:
            code (str): `"0"` on success, otherwise an error code. Example: 0.
            message (str): Human-readable, translated; never branch on it. Example: OK.
            data (WebhookEndpoint): A webhook endpoint of an installation (its secret is never shown again). Example:
                {'endpointId': 'whe_5n2k8q4x0c6v1b7m3z9w5r1t8y', 'installationId': 'ins_tem0n4ppxp001k9644h7d5v225', 'url':
                'https://hooks.fleet.example/tessera', 'eventTypes': ['assets.assignment.changed', 'inventory.stock-
                in.created'], 'enabled': True, 'disabledReason': None, 'rateLimit': 50, 'maxInFlight': None, 'signatureFormat':
                'tessera', 'created_at': '2026-11-22T08:00:00.000Z', 'updated_at': '2026-11-22T08:00:00.000Z'}.
     """

    code: str
    message: str
    data: WebhookEndpoint
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.webhook_endpoint import WebhookEndpoint # noqa: PLC0415
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
        from ..models.webhook_endpoint import WebhookEndpoint # noqa: PLC0415
        d = dict(src_dict)
        code = d.pop("code")

        message = d.pop("message")

        data = WebhookEndpoint.from_dict(d.pop("data"))




        webhook_endpoint_envelope = cls(
            code=code,
            message=message,
            data=data,
        )


        webhook_endpoint_envelope.additional_properties = d
        return webhook_endpoint_envelope

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
