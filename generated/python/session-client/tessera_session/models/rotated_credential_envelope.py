from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.rotated_credential import RotatedCredential





T = TypeVar("T", bound="RotatedCredentialEnvelope")



@_attrs_define
class RotatedCredentialEnvelope:
    """ 
        Example:
            {'code': '0', 'message': 'OK', 'data': {'clientId': 'tcli_df59b36b7a6021f5d410f51a', 'kind': 'secret',
                'clientSecret': 'tsec_cP4dISsveHMdza-V9g0EnXmR3nMMZPmEn7N4Ax7Yvx0', 'installationId':
                'ins_tem0n4ppxp001k9644h7d5v225', 'previousClientId': 'tcli_c4668f8f8af8e62f8660adbe', 'previousExpiresAt':
                '2026-11-23T08:00:00.000Z'}}

        Attributes:
            code (str): `"0"` on success, otherwise an error code. Example: 0.
            message (str): Human-readable, translated; never branch on it. Example: OK.
            data (RotatedCredential): The new credential (its secret shown only in this response, or its keys) and the old
                one's grace end. Example: {'clientId': 'tcli_df59b36b7a6021f5d410f51a', 'kind': 'secret', 'clientSecret':
                'tsec_cP4dISsveHMdza-V9g0EnXmR3nMMZPmEn7N4Ax7Yvx0', 'installationId': 'ins_tem0n4ppxp001k9644h7d5v225',
                'previousClientId': 'tcli_c4668f8f8af8e62f8660adbe', 'previousExpiresAt': '2026-11-23T08:00:00.000Z'}.
     """

    code: str
    message: str
    data: RotatedCredential
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.rotated_credential import RotatedCredential # noqa: PLC0415
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
        from ..models.rotated_credential import RotatedCredential # noqa: PLC0415
        d = dict(src_dict)
        code = d.pop("code")

        message = d.pop("message")

        data = RotatedCredential.from_dict(d.pop("data"))




        rotated_credential_envelope = cls(
            code=code,
            message=message,
            data=data,
        )


        rotated_credential_envelope.additional_properties = d
        return rotated_credential_envelope

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
