from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.credential_expiry_approaching_event_schema_version import CredentialExpiryApproachingEventSchemaVersion
from ..models.credential_expiry_approaching_event_type import CredentialExpiryApproachingEventType
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.credential_expiry_approaching_payload import CredentialExpiryApproachingPayload





T = TypeVar("T", bound="CredentialExpiryApproachingEvent")



@_attrs_define
class CredentialExpiryApproachingEvent:
    """ Body of a `credential.expiry.approaching` delivery. It never names the tenant.

        Example:
            {'id': 'evt_01jd7m2q8x5v3c9n6b4k1r7t0x', 'type': 'credential.expiry.approaching', 'schemaVersion': 1,
                'occurredAt': '2026-11-08T08:10:00.000Z', 'data': {'clientId': 'tcli_c4668f8f8af8e62f8660adbe',
                'installationId': 'ins_tem0n4ppxp001k9644h7d5v225', 'applicationId': 'app_3k7d9q2w5e8r1t4y6u0i2o4p6a',
                'createdAt': '2026-05-26T08:00:00.000Z', 'maxAgeDays': 180, 'expiresAt': '2026-11-22T08:00:00.000Z'}}

        Attributes:
            id (str): Event id; retries and replays reuse it.
            type_ (CredentialExpiryApproachingEventType):
            schema_version (CredentialExpiryApproachingEventSchemaVersion):
            occurred_at (datetime.datetime): When the service noticed the credential near its maximum age.
            data (CredentialExpiryApproachingPayload): `data` of the `credential.expiry.approaching` event. Example:
                {'clientId': 'tcli_c4668f8f8af8e62f8660adbe', 'installationId': 'ins_tem0n4ppxp001k9644h7d5v225',
                'applicationId': 'app_3k7d9q2w5e8r1t4y6u0i2o4p6a', 'createdAt': '2026-05-26T08:00:00.000Z', 'maxAgeDays': 180,
                'expiresAt': '2026-11-22T08:00:00.000Z'}.
     """

    id: str
    type_: CredentialExpiryApproachingEventType
    schema_version: CredentialExpiryApproachingEventSchemaVersion
    occurred_at: datetime.datetime
    data: CredentialExpiryApproachingPayload
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.credential_expiry_approaching_payload import CredentialExpiryApproachingPayload # noqa: PLC0415
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
        from ..models.credential_expiry_approaching_payload import CredentialExpiryApproachingPayload # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        type_ = CredentialExpiryApproachingEventType(d.pop("type"))




        schema_version = CredentialExpiryApproachingEventSchemaVersion(d.pop("schemaVersion"))




        occurred_at = datetime.datetime.fromisoformat(d.pop("occurredAt"))




        data = CredentialExpiryApproachingPayload.from_dict(d.pop("data"))




        credential_expiry_approaching_event = cls(
            id=id,
            type_=type_,
            schema_version=schema_version,
            occurred_at=occurred_at,
            data=data,
        )


        credential_expiry_approaching_event.additional_properties = d
        return credential_expiry_approaching_event

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
