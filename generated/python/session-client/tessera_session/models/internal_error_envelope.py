from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.internal_error_envelope_code import InternalErrorEnvelopeCode
from typing import cast

if TYPE_CHECKING:
  from ..models.trace_data import TraceData





T = TypeVar("T", bound="InternalErrorEnvelope")



@_attrs_define
class InternalErrorEnvelope:
    """ `INTERNAL_ERROR`: `data.traceId` is the request id to quote.

        Attributes:
            code (InternalErrorEnvelopeCode):
            message (str): Human-readable, translated; never branch on it.
            data (TraceData):
     """

    code: InternalErrorEnvelopeCode
    message: str
    data: TraceData
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.trace_data import TraceData # noqa: PLC0415
        code = self.code.value

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
        from ..models.trace_data import TraceData # noqa: PLC0415
        d = dict(src_dict)
        code = InternalErrorEnvelopeCode(d.pop("code"))




        message = d.pop("message")

        data = TraceData.from_dict(d.pop("data"))




        internal_error_envelope = cls(
            code=code,
            message=message,
            data=data,
        )


        internal_error_envelope.additional_properties = d
        return internal_error_envelope

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
