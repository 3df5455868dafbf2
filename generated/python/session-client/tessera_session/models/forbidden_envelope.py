from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.forbidden_envelope_code import ForbiddenEnvelopeCode
from typing import cast

if TYPE_CHECKING:
  from ..models.error_envelope_data_type_0 import ErrorEnvelopeDataType0





T = TypeVar("T", bound="ForbiddenEnvelope")



@_attrs_define
class ForbiddenEnvelope:
    """ `FORBIDDEN` (`data.permission` names the missing permission) or `TENANT_FORBIDDEN`.

        Attributes:
            code (ForbiddenEnvelopeCode):
            message (str): Human-readable, translated; never branch on it.
            data (ErrorEnvelopeDataType0 | None): Structured detail of the error, or null.
     """

    code: ForbiddenEnvelopeCode
    message: str
    data: ErrorEnvelopeDataType0 | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.error_envelope_data_type_0 import ErrorEnvelopeDataType0 # noqa: PLC0415
        code = self.code.value

        message = self.message

        data: dict[str, Any] | None
        if isinstance(self.data, ErrorEnvelopeDataType0):
            data = self.data.to_dict()
        else:
            data = self.data


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
        from ..models.error_envelope_data_type_0 import ErrorEnvelopeDataType0 # noqa: PLC0415
        d = dict(src_dict)
        code = ForbiddenEnvelopeCode(d.pop("code"))




        message = d.pop("message")

        def _parse_data(data: object) -> ErrorEnvelopeDataType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                data_type_0 = ErrorEnvelopeDataType0.from_dict(data)



                return data_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ErrorEnvelopeDataType0 | None, data)

        data = _parse_data(d.pop("data"))


        forbidden_envelope = cls(
            code=code,
            message=message,
            data=data,
        )


        forbidden_envelope.additional_properties = d
        return forbidden_envelope

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
