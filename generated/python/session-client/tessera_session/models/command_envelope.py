from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.command_envelope_code import CommandEnvelopeCode
from typing import cast

if TYPE_CHECKING:
  from ..models.deleted_record import DeletedRecord
  from ..models.record import Record





T = TypeVar("T", bound="CommandEnvelope")



@_attrs_define
class CommandEnvelope:
    """ 
        Attributes:
            code (CommandEnvelopeCode): `"0"` on success, otherwise an error code. Example: 0.
            message (str): Human-readable, translated; never branch on it. Example: OK.
            data (DeletedRecord | Record): Object, array or null.
     """

    code: CommandEnvelopeCode
    message: str
    data: DeletedRecord | Record
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.deleted_record import DeletedRecord # noqa: PLC0415
        from ..models.record import Record # noqa: PLC0415
        code = self.code.value

        message = self.message

        data: dict[str, Any]
        if isinstance(self.data, Record):
            data = self.data.to_dict()
        else:
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
        from ..models.deleted_record import DeletedRecord # noqa: PLC0415
        from ..models.record import Record # noqa: PLC0415
        d = dict(src_dict)
        code = CommandEnvelopeCode(d.pop("code"))




        message = d.pop("message")

        def _parse_data(data: object) -> DeletedRecord | Record:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                data_type_0 = Record.from_dict(data)



                return data_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            data_type_1 = DeletedRecord.from_dict(data)



            return data_type_1

        data = _parse_data(d.pop("data"))


        command_envelope = cls(
            code=code,
            message=message,
            data=data,
        )


        command_envelope.additional_properties = d
        return command_envelope

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
