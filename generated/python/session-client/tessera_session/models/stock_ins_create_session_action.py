from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.stock_ins_create_session_action_command import StockInsCreateSessionActionCommand
from ..models.stock_ins_create_session_action_kind import StockInsCreateSessionActionKind
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.stock_ins_create_session_action_payload import StockInsCreateSessionActionPayload





T = TypeVar("T", bound="StockInsCreateSessionAction")



@_attrs_define
class StockInsCreateSessionAction:
    """ Runs `stock-ins:create`.

        Attributes:
            kind (StockInsCreateSessionActionKind):
            command (StockInsCreateSessionActionCommand):
            payload (StockInsCreateSessionActionPayload): The `stockIn` fields to write.
            target_record_id (str | Unset): The record to change: its id, or an event path.
     """

    kind: StockInsCreateSessionActionKind
    command: StockInsCreateSessionActionCommand
    payload: StockInsCreateSessionActionPayload
    target_record_id: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.stock_ins_create_session_action_payload import StockInsCreateSessionActionPayload # noqa: PLC0415
        kind = self.kind.value

        command = self.command.value

        payload = self.payload.to_dict()

        target_record_id = self.target_record_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "kind": kind,
            "command": command,
            "payload": payload,
        })
        if target_record_id is not UNSET:
            field_dict["targetRecordId"] = target_record_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.stock_ins_create_session_action_payload import StockInsCreateSessionActionPayload # noqa: PLC0415
        d = dict(src_dict)
        kind = StockInsCreateSessionActionKind(d.pop("kind"))




        command = StockInsCreateSessionActionCommand(d.pop("command"))




        payload = StockInsCreateSessionActionPayload.from_dict(d.pop("payload"))




        target_record_id = d.pop("targetRecordId", UNSET)

        stock_ins_create_session_action = cls(
            kind=kind,
            command=command,
            payload=payload,
            target_record_id=target_record_id,
        )

        return stock_ins_create_session_action

