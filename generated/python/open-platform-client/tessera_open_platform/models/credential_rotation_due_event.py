from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.credential_rotation_due_event_schema_version import CredentialRotationDueEventSchemaVersion
from ..models.credential_rotation_due_event_type import CredentialRotationDueEventType
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.credential_rotation_due_payload import CredentialRotationDuePayload





T = TypeVar("T", bound="CredentialRotationDueEvent")



@_attrs_define
class CredentialRotationDueEvent:
    """ Body of a `credential.rotation.due` delivery. It never names the tenant.

        Example:
            {'id': 'evt_01jd7m2q8x5v3c9n6b4k1r7t0w', 'type': 'credential.rotation.due', 'schemaVersion': 1, 'occurredAt':
                '2026-11-22T08:10:00.000Z', 'data': {'clientId': 'tcli_c4668f8f8af8e62f8660adbe', 'installationId':
                'ins_tem0n4ppxp001k9644h7d5v225', 'applicationId': 'app_3k7d9q2w5e8r1t4y6u0i2o4p6a', 'createdAt':
                '2026-08-24T08:00:00.000Z', 'rotationDays': 90, 'rotationDueAt': '2026-11-22T08:00:00.000Z'}}

        Attributes:
            id (str): Event id; retries and replays reuse it.
            type_ (CredentialRotationDueEventType):
            schema_version (CredentialRotationDueEventSchemaVersion):
            occurred_at (datetime.datetime): When the service noticed the credential past the baseline.
            data (CredentialRotationDuePayload): `data` of the `credential.rotation.due` event. Example: {'clientId':
                'tcli_c4668f8f8af8e62f8660adbe', 'installationId': 'ins_tem0n4ppxp001k9644h7d5v225', 'applicationId':
                'app_3k7d9q2w5e8r1t4y6u0i2o4p6a', 'createdAt': '2026-08-24T08:00:00.000Z', 'rotationDays': 90, 'rotationDueAt':
                '2026-11-22T08:00:00.000Z'}.
     """

    id: str
    type_: CredentialRotationDueEventType
    schema_version: CredentialRotationDueEventSchemaVersion
    occurred_at: datetime.datetime
    data: CredentialRotationDuePayload
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.credential_rotation_due_payload import CredentialRotationDuePayload # noqa: PLC0415
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
        from ..models.credential_rotation_due_payload import CredentialRotationDuePayload # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        type_ = CredentialRotationDueEventType(d.pop("type"))




        schema_version = CredentialRotationDueEventSchemaVersion(d.pop("schemaVersion"))




        occurred_at = datetime.datetime.fromisoformat(d.pop("occurredAt"))




        data = CredentialRotationDuePayload.from_dict(d.pop("data"))




        credential_rotation_due_event = cls(
            id=id,
            type_=type_,
            schema_version=schema_version,
            occurred_at=occurred_at,
            data=data,
        )


        credential_rotation_due_event.additional_properties = d
        return credential_rotation_due_event

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
