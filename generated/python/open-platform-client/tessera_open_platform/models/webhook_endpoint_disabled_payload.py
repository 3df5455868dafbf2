from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="WebhookEndpointDisabledPayload")



@_attrs_define
class WebhookEndpointDisabledPayload:
    """ `data` of the `webhook.endpoint.disabled` event.

        Example:
            {'endpointId': 'whe_5n2k8q4x0c6v1b7m3z9w5r1t8y', 'installationId': 'ins_tem0n4ppxp001k9644h7d5v225',
                'applicationId': 'app_3k7d9q2w5e8r1t4y6u0i2o4p6a', 'url': 'https://hooks.fleet.example/tessera', 'reason': '410
                Gone', 'disabledAt': '2026-11-22T08:00:00.000Z'}

        Attributes:
            endpoint_id (str): The endpoint the service disabled.
            installation_id (str): The installation the endpoint belongs to.
            application_id (str): The application of that installation (the one receiving this event).
            url (str): The endpoint's URL.
            reason (str): `410 Gone`, or `failing since <time>` (every attempt failed for longer than allowed).
            disabled_at (datetime.datetime): When the service disabled it; an application owner re-enables it in the
                console.
     """

    endpoint_id: str
    installation_id: str
    application_id: str
    url: str
    reason: str
    disabled_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        endpoint_id = self.endpoint_id

        installation_id = self.installation_id

        application_id = self.application_id

        url = self.url

        reason = self.reason

        disabled_at = self.disabled_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "endpointId": endpoint_id,
            "installationId": installation_id,
            "applicationId": application_id,
            "url": url,
            "reason": reason,
            "disabledAt": disabled_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        endpoint_id = d.pop("endpointId")

        installation_id = d.pop("installationId")

        application_id = d.pop("applicationId")

        url = d.pop("url")

        reason = d.pop("reason")

        disabled_at = datetime.datetime.fromisoformat(d.pop("disabledAt"))




        webhook_endpoint_disabled_payload = cls(
            endpoint_id=endpoint_id,
            installation_id=installation_id,
            application_id=application_id,
            url=url,
            reason=reason,
            disabled_at=disabled_at,
        )


        webhook_endpoint_disabled_payload.additional_properties = d
        return webhook_endpoint_disabled_payload

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
