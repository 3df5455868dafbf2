from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="RotatedWebhookSecret")



@_attrs_define
class RotatedWebhookSecret:
    """ The new signing secret (shown only in this response) and the end of the previous secrets' overlap.

        Example:
            {'endpointId': 'whe_5n2k8q4x0c6v1b7m3z9w5r1t8y', 'secret': 'twsec_Yk2Wn7Qd4Rb9Tf1Hm6Lc3Vs8Px0Zg5Ju2Ne7Ao4Di9K',
                'previousSecretsExpireAt': '2026-11-23T08:00:00.000Z'}

        Attributes:
            endpoint_id (str):
            secret (str): A signing secret (the new one, in force at once, when rotated), in the form of the
                endpoint's `signatureFormat` when it was issued:
                `twsec_` and 43 base64url characters (`tessera`: the HMAC key is the whole string's
                UTF-8 bytes) or `whsec_` and the standard base64 of 32 random bytes (`standard-webhooks`:
                the key is the decoded bytes; pass the string as it is to the official libraries). Shown
                exactly once; stored sealed, never audited.
                 Example: twsec_3q6Xb0pKc2Vd9Zs7Lm1Nw4Rt8Yu5Ea0Gh2Jk6Fo9Ti3.
            previous_secrets_expire_at (datetime.datetime): When the previous secrets stop signing (now plus
                `overlapSeconds`).
     """

    endpoint_id: str
    secret: str
    previous_secrets_expire_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        endpoint_id = self.endpoint_id

        secret = self.secret

        previous_secrets_expire_at = self.previous_secrets_expire_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "endpointId": endpoint_id,
            "secret": secret,
            "previousSecretsExpireAt": previous_secrets_expire_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        endpoint_id = d.pop("endpointId")

        secret = d.pop("secret")

        previous_secrets_expire_at = datetime.datetime.fromisoformat(d.pop("previousSecretsExpireAt"))




        rotated_webhook_secret = cls(
            endpoint_id=endpoint_id,
            secret=secret,
            previous_secrets_expire_at=previous_secrets_expire_at,
        )


        rotated_webhook_secret.additional_properties = d
        return rotated_webhook_secret

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
