from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.webhook_endpoint_disabled_event_schema_version import WebhookEndpointDisabledEventSchemaVersion
from ..models.webhook_endpoint_disabled_event_type import WebhookEndpointDisabledEventType
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.webhook_endpoint_disabled_payload import WebhookEndpointDisabledPayload





T = TypeVar("T", bound="WebhookEndpointDisabledEvent")



@_attrs_define
class WebhookEndpointDisabledEvent:
    """ Body of a `webhook.endpoint.disabled` delivery. It never names the tenant.

        Example:
            {'id': 'evt_01jd7m2q8x5v3c9n6b4k1r7t0w', 'type': 'webhook.endpoint.disabled', 'schemaVersion': 1, 'occurredAt':
                '2026-11-22T08:00:00.000Z', 'data': {'endpointId': 'whe_5n2k8q4x0c6v1b7m3z9w5r1t8y', 'installationId':
                'ins_tem0n4ppxp001k9644h7d5v225', 'applicationId': 'app_3k7d9q2w5e8r1t4y6u0i2o4p6a', 'url':
                'https://hooks.fleet.example/tessera', 'reason': '410 Gone', 'disabledAt': '2026-11-22T08:00:00.000Z'}}

        Attributes:
            id (str): Event id; retries and replays reuse it.
            type_ (WebhookEndpointDisabledEventType):
            schema_version (WebhookEndpointDisabledEventSchemaVersion):
            occurred_at (datetime.datetime): When the endpoint was disabled.
            data (WebhookEndpointDisabledPayload): `data` of the `webhook.endpoint.disabled` event. Example: {'endpointId':
                'whe_5n2k8q4x0c6v1b7m3z9w5r1t8y', 'installationId': 'ins_tem0n4ppxp001k9644h7d5v225', 'applicationId':
                'app_3k7d9q2w5e8r1t4y6u0i2o4p6a', 'url': 'https://hooks.fleet.example/tessera', 'reason': '410 Gone',
                'disabledAt': '2026-11-22T08:00:00.000Z'}.
     """

    id: str
    type_: WebhookEndpointDisabledEventType
    schema_version: WebhookEndpointDisabledEventSchemaVersion
    occurred_at: datetime.datetime
    data: WebhookEndpointDisabledPayload
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.webhook_endpoint_disabled_payload import WebhookEndpointDisabledPayload # noqa: PLC0415
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
        from ..models.webhook_endpoint_disabled_payload import WebhookEndpointDisabledPayload # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        type_ = WebhookEndpointDisabledEventType(d.pop("type"))




        schema_version = WebhookEndpointDisabledEventSchemaVersion(d.pop("schemaVersion"))




        occurred_at = datetime.datetime.fromisoformat(d.pop("occurredAt"))




        data = WebhookEndpointDisabledPayload.from_dict(d.pop("data"))




        webhook_endpoint_disabled_event = cls(
            id=id,
            type_=type_,
            schema_version=schema_version,
            occurred_at=occurred_at,
            data=data,
        )


        webhook_endpoint_disabled_event.additional_properties = d
        return webhook_endpoint_disabled_event

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
