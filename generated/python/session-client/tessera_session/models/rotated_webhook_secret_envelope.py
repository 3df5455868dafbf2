from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.rotated_webhook_secret import RotatedWebhookSecret





T = TypeVar("T", bound="RotatedWebhookSecretEnvelope")



@_attrs_define
class RotatedWebhookSecretEnvelope:
    """ 
        Example:
            {'code': '0', 'message': 'OK', 'data': {'endpointId': 'whe_5n2k8q4x0c6v1b7m3z9w5r1t8y', 'secret':
                'whsec_Yk2Wn7Qd4Rb9Tf1Hm6Lc3Vs8Px0Zg5Ju2Ne7Ao4D+Uo=', 'previousSecretsExpireAt': '2026-11-23T08:00:00.000Z'}}

        Attributes:
            code (str): `"0"` on success, otherwise an error code. Example: 0.
            message (str): Human-readable, translated; never branch on it. Example: OK.
            data (RotatedWebhookSecret): The new signing secret (shown only in this response) and the end of the previous
                secrets' overlap. Example: {'endpointId': 'whe_5n2k8q4x0c6v1b7m3z9w5r1t8y', 'secret':
                'twsec_Yk2Wn7Qd4Rb9Tf1Hm6Lc3Vs8Px0Zg5Ju2Ne7Ao4Di9K', 'previousSecretsExpireAt': '2026-11-23T08:00:00.000Z'}.
     """

    code: str
    message: str
    data: RotatedWebhookSecret
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.rotated_webhook_secret import RotatedWebhookSecret # noqa: PLC0415
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
        from ..models.rotated_webhook_secret import RotatedWebhookSecret # noqa: PLC0415
        d = dict(src_dict)
        code = d.pop("code")

        message = d.pop("message")

        data = RotatedWebhookSecret.from_dict(d.pop("data"))




        rotated_webhook_secret_envelope = cls(
            code=code,
            message=message,
            data=data,
        )


        rotated_webhook_secret_envelope.additional_properties = d
        return rotated_webhook_secret_envelope

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
