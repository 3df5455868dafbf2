from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.command_result_code import CommandResultCode
from typing import cast

if TYPE_CHECKING:
  from ..models.stock_in import StockIn





T = TypeVar("T", bound="StockInCommandEnvelope")



@_attrs_define
class StockInCommandEnvelope:
    """ The `stockIn` record as the command left it.

        Attributes:
            code (CommandResultCode): `0`: the command ran; `IDEMPOTENT_REPLAY`: the answer kept for an earlier request with
                the same idempotency key. Example: 0.
            message (str): Human-readable, translated; never branch on it. Example: OK.
            data (StockIn): A `stockIn` record (Stock-in).
     """

    code: CommandResultCode
    message: str
    data: StockIn
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.stock_in import StockIn # noqa: PLC0415
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
        from ..models.stock_in import StockIn # noqa: PLC0415
        d = dict(src_dict)
        code = CommandResultCode(d.pop("code"))




        message = d.pop("message")

        data = StockIn.from_dict(d.pop("data"))




        stock_in_command_envelope = cls(
            code=code,
            message=message,
            data=data,
        )


        stock_in_command_envelope.additional_properties = d
        return stock_in_command_envelope

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
