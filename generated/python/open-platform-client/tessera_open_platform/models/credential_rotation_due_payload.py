from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="CredentialRotationDuePayload")



@_attrs_define
class CredentialRotationDuePayload:
    """ `data` of the `credential.rotation.due` event.

        Example:
            {'clientId': 'tcli_c4668f8f8af8e62f8660adbe', 'installationId': 'ins_tem0n4ppxp001k9644h7d5v225',
                'applicationId': 'app_3k7d9q2w5e8r1t4y6u0i2o4p6a', 'createdAt': '2026-08-24T08:00:00.000Z', 'rotationDays': 90,
                'rotationDueAt': '2026-11-22T08:00:00.000Z'}

        Attributes:
            client_id (str): The credential that reached the rotation baseline.
            installation_id (str): The installation the credential belongs to.
            application_id (str): The application of that installation (the one receiving this event).
            created_at (datetime.datetime): When the credential was created.
            rotation_days (int): The baseline, in days (90 unless the service sets another).
            rotation_due_at (datetime.datetime): When the credential reached the baseline.
     """

    client_id: str
    installation_id: str
    application_id: str
    created_at: datetime.datetime
    rotation_days: int
    rotation_due_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        client_id = self.client_id

        installation_id = self.installation_id

        application_id = self.application_id

        created_at = self.created_at.isoformat()

        rotation_days = self.rotation_days

        rotation_due_at = self.rotation_due_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "clientId": client_id,
            "installationId": installation_id,
            "applicationId": application_id,
            "createdAt": created_at,
            "rotationDays": rotation_days,
            "rotationDueAt": rotation_due_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        client_id = d.pop("clientId")

        installation_id = d.pop("installationId")

        application_id = d.pop("applicationId")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))




        rotation_days = d.pop("rotationDays")

        rotation_due_at = datetime.datetime.fromisoformat(d.pop("rotationDueAt"))




        credential_rotation_due_payload = cls(
            client_id=client_id,
            installation_id=installation_id,
            application_id=application_id,
            created_at=created_at,
            rotation_days=rotation_days,
            rotation_due_at=rotation_due_at,
        )


        credential_rotation_due_payload.additional_properties = d
        return credential_rotation_due_payload

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
