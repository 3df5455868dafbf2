from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="CredentialExpiryApproachingPayload")



@_attrs_define
class CredentialExpiryApproachingPayload:
    """ `data` of the `credential.expiry.approaching` event.

        Example:
            {'clientId': 'tcli_c4668f8f8af8e62f8660adbe', 'installationId': 'ins_tem0n4ppxp001k9644h7d5v225',
                'applicationId': 'app_3k7d9q2w5e8r1t4y6u0i2o4p6a', 'createdAt': '2026-05-26T08:00:00.000Z', 'maxAgeDays': 180,
                'expiresAt': '2026-11-22T08:00:00.000Z'}

        Attributes:
            client_id (str): The credential near its maximum age.
            installation_id (str): The installation the credential belongs to.
            application_id (str): The application of that installation (the one receiving this event).
            created_at (datetime.datetime): When the credential was created.
            max_age_days (int): The maximum age the service allows, in days.
            expires_at (datetime.datetime): When the credential stops obtaining tokens (`invalid_client`); rotate it before.
     """

    client_id: str
    installation_id: str
    application_id: str
    created_at: datetime.datetime
    max_age_days: int
    expires_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        client_id = self.client_id

        installation_id = self.installation_id

        application_id = self.application_id

        created_at = self.created_at.isoformat()

        max_age_days = self.max_age_days

        expires_at = self.expires_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "clientId": client_id,
            "installationId": installation_id,
            "applicationId": application_id,
            "createdAt": created_at,
            "maxAgeDays": max_age_days,
            "expiresAt": expires_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        client_id = d.pop("clientId")

        installation_id = d.pop("installationId")

        application_id = d.pop("applicationId")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))




        max_age_days = d.pop("maxAgeDays")

        expires_at = datetime.datetime.fromisoformat(d.pop("expiresAt"))




        credential_expiry_approaching_payload = cls(
            client_id=client_id,
            installation_id=installation_id,
            application_id=application_id,
            created_at=created_at,
            max_age_days=max_age_days,
            expires_at=expires_at,
        )


        credential_expiry_approaching_payload.additional_properties = d
        return credential_expiry_approaching_payload

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
