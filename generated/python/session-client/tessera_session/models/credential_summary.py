from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.credential_kind import CredentialKind
from ..models.credential_status import CredentialStatus
from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.credential_key import CredentialKey





T = TypeVar("T", bound="CredentialSummary")



@_attrs_define
class CredentialSummary:
    """ A client credential as listed; its secret is never shown again.

        Example:
            {'clientId': 'tcli_c4668f8f8af8e62f8660adbe', 'kind': 'secret', 'installationId':
                'ins_tem0n4ppxp001k9644h7d5v225', 'status': 'rotated', 'created_at': '2026-11-21T08:00:00.000Z', 'rotatedAt':
                '2026-11-22T08:00:00.000Z', 'expiresAt': '2026-11-23T08:00:00.000Z', 'revokedAt': None, 'ageDays': 4,
                'rotationDue': False, 'rotationDueAt': '2027-02-19T08:00:00.000Z', 'maxAgeExpiresAt': None}

        Attributes:
            client_id (str):
            kind (CredentialKind): `secret`: the client authenticates with its client secret; `private_key_jwt`: with a
                client assertion signed by a private key whose public key the credential holds (RFC 7523).
            installation_id (str):
            status (CredentialStatus): `active` (obtains tokens), `rotated` (replaced by a rotation, obtains tokens until
                `expiresAt`), `expired` (its grace window is over, or it is older than the maximum age,
                `maxAgeExpiresAt`) or `revoked`.
                 Example: active.
            created_at (datetime.datetime):
            rotated_at (datetime.datetime | None): When it was rotated; null when it was not.
            expires_at (datetime.datetime | None): When a rotated credential stops obtaining tokens (the end of its grace
                window); null otherwise.
            revoked_at (datetime.datetime | None): When it was revoked; null when it was not.
            age_days (int): Whole days since it was created.
            rotation_due (bool): True when the credential is active and at least `TESSERA_CREDENTIAL_ROTATION_DAYS` (90 by
                default) old: rotate it. Nothing is refused for it.
            rotation_due_at (datetime.datetime): When it reaches (or reached) the rotation baseline.
            max_age_expires_at (datetime.datetime | None): When it stops obtaining tokens for its age
                (`TESSERA_CREDENTIAL_MAX_AGE_DAYS`); null when the service sets no maximum age (the default).
            keys (list[CredentialKey] | Unset): The public keys of a `private_key_jwt` credential (absent for a `secret`
                one).
     """

    client_id: str
    kind: CredentialKind
    installation_id: str
    status: CredentialStatus
    created_at: datetime.datetime
    rotated_at: datetime.datetime | None
    expires_at: datetime.datetime | None
    revoked_at: datetime.datetime | None
    age_days: int
    rotation_due: bool
    rotation_due_at: datetime.datetime
    max_age_expires_at: datetime.datetime | None
    keys: list[CredentialKey] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.credential_key import CredentialKey # noqa: PLC0415
        client_id = self.client_id

        kind = self.kind.value

        installation_id = self.installation_id

        status = self.status.value

        created_at = self.created_at.isoformat()

        rotated_at: None | str
        if isinstance(self.rotated_at, datetime.datetime):
            rotated_at = self.rotated_at.isoformat()
        else:
            rotated_at = self.rotated_at

        expires_at: None | str
        if isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        revoked_at: None | str
        if isinstance(self.revoked_at, datetime.datetime):
            revoked_at = self.revoked_at.isoformat()
        else:
            revoked_at = self.revoked_at

        age_days = self.age_days

        rotation_due = self.rotation_due

        rotation_due_at = self.rotation_due_at.isoformat()

        max_age_expires_at: None | str
        if isinstance(self.max_age_expires_at, datetime.datetime):
            max_age_expires_at = self.max_age_expires_at.isoformat()
        else:
            max_age_expires_at = self.max_age_expires_at

        keys: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.keys, Unset):
            keys = []
            for keys_item_data in self.keys:
                keys_item = keys_item_data.to_dict()
                keys.append(keys_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "clientId": client_id,
            "kind": kind,
            "installationId": installation_id,
            "status": status,
            "created_at": created_at,
            "rotatedAt": rotated_at,
            "expiresAt": expires_at,
            "revokedAt": revoked_at,
            "ageDays": age_days,
            "rotationDue": rotation_due,
            "rotationDueAt": rotation_due_at,
            "maxAgeExpiresAt": max_age_expires_at,
        })
        if keys is not UNSET:
            field_dict["keys"] = keys

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.credential_key import CredentialKey # noqa: PLC0415
        d = dict(src_dict)
        client_id = d.pop("clientId")

        kind = CredentialKind(d.pop("kind"))




        installation_id = d.pop("installationId")

        status = CredentialStatus(d.pop("status"))




        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        def _parse_rotated_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                rotated_at_type_0 = datetime.datetime.fromisoformat(data)



                return rotated_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        rotated_at = _parse_rotated_at(d.pop("rotatedAt"))


        def _parse_expires_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)



                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        expires_at = _parse_expires_at(d.pop("expiresAt"))


        def _parse_revoked_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                revoked_at_type_0 = datetime.datetime.fromisoformat(data)



                return revoked_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        revoked_at = _parse_revoked_at(d.pop("revokedAt"))


        age_days = d.pop("ageDays")

        rotation_due = d.pop("rotationDue")

        rotation_due_at = datetime.datetime.fromisoformat(d.pop("rotationDueAt"))




        def _parse_max_age_expires_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                max_age_expires_at_type_0 = datetime.datetime.fromisoformat(data)



                return max_age_expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        max_age_expires_at = _parse_max_age_expires_at(d.pop("maxAgeExpiresAt"))


        _keys = d.pop("keys", UNSET)
        keys: list[CredentialKey] | Unset = UNSET
        if _keys is not UNSET:
            keys = []
            for keys_item_data in _keys:
                keys_item = CredentialKey.from_dict(keys_item_data)



                keys.append(keys_item)


        credential_summary = cls(
            client_id=client_id,
            kind=kind,
            installation_id=installation_id,
            status=status,
            created_at=created_at,
            rotated_at=rotated_at,
            expires_at=expires_at,
            revoked_at=revoked_at,
            age_days=age_days,
            rotation_due=rotation_due,
            rotation_due_at=rotation_due_at,
            max_age_expires_at=max_age_expires_at,
            keys=keys,
        )


        credential_summary.additional_properties = d
        return credential_summary

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
