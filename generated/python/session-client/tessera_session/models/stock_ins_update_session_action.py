from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.stock_ins_update_session_action_command import StockInsUpdateSessionActionCommand
from ..models.stock_ins_update_session_action_kind import StockInsUpdateSessionActionKind
from typing import cast

if TYPE_CHECKING:
  from ..models.stock_ins_update_session_action_payload import StockInsUpdateSessionActionPayload





T = TypeVar("T", bound="StockInsUpdateSessionAction")



@_attrs_define
class StockInsUpdateSessionAction:
    """ Runs `stock-ins:update`.

        Attributes:
            kind (StockInsUpdateSessionActionKind):
            command (StockInsUpdateSessionActionCommand):
            target_record_id (str): The record to change: its id, or an event path.
            payload (StockInsUpdateSessionActionPayload): The `stockIn` fields to write.
     """

    kind: StockInsUpdateSessionActionKind
    command: StockInsUpdateSessionActionCommand
    target_record_id: str
    payload: StockInsUpdateSessionActionPayload





    def to_dict(self) -> dict[str, Any]:
        from ..models.stock_ins_update_session_action_payload import StockInsUpdateSessionActionPayload # noqa: PLC0415
        kind = self.kind.value

        command = self.command.value

        target_record_id = self.target_record_id

        payload = self.payload.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "kind": kind,
            "command": command,
            "targetRecordId": target_record_id,
            "payload": payload,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.stock_ins_update_session_action_payload import StockInsUpdateSessionActionPayload # noqa: PLC0415
        d = dict(src_dict)
        kind = StockInsUpdateSessionActionKind(d.pop("kind"))




        command = StockInsUpdateSessionActionCommand(d.pop("command"))




        target_record_id = d.pop("targetRecordId")

        payload = StockInsUpdateSessionActionPayload.from_dict(d.pop("payload"))




        stock_ins_update_session_action = cls(
            kind=kind,
            command=command,
            target_record_id=target_record_id,
            payload=payload,
        )

        return stock_ins_update_session_action

