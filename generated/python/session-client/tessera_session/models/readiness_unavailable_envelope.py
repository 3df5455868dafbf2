from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.readiness_unavailable_envelope_code import ReadinessUnavailableEnvelopeCode
from typing import cast

if TYPE_CHECKING:
  from ..models.readiness_status import ReadinessStatus





T = TypeVar("T", bound="ReadinessUnavailableEnvelope")



@_attrs_define
class ReadinessUnavailableEnvelope:
    """ `SERVICE_UNAVAILABLE`: `data` says which part is down.

        Attributes:
            code (ReadinessUnavailableEnvelopeCode):
            message (str): Human-readable, translated; never branch on it.
            data (ReadinessStatus):
     """

    code: ReadinessUnavailableEnvelopeCode
    message: str
    data: ReadinessStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.readiness_status import ReadinessStatus # noqa: PLC0415
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
        from ..models.readiness_status import ReadinessStatus # noqa: PLC0415
        d = dict(src_dict)
        code = ReadinessUnavailableEnvelopeCode(d.pop("code"))




        message = d.pop("message")

        data = ReadinessStatus.from_dict(d.pop("data"))




        readiness_unavailable_envelope = cls(
            code=code,
            message=message,
            data=data,
        )


        readiness_unavailable_envelope.additional_properties = d
        return readiness_unavailable_envelope

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
