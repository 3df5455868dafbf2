from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.stock_ins_delete_session_action_command import StockInsDeleteSessionActionCommand
from ..models.stock_ins_delete_session_action_kind import StockInsDeleteSessionActionKind






T = TypeVar("T", bound="StockInsDeleteSessionAction")



@_attrs_define
class StockInsDeleteSessionAction:
    """ Runs `stock-ins:delete`.

        Attributes:
            kind (StockInsDeleteSessionActionKind):
            command (StockInsDeleteSessionActionCommand):
            target_record_id (str): The record to change: its id, or an event path.
     """

    kind: StockInsDeleteSessionActionKind
    command: StockInsDeleteSessionActionCommand
    target_record_id: str





    def to_dict(self) -> dict[str, Any]:
        kind = self.kind.value

        command = self.command.value

        target_record_id = self.target_record_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "kind": kind,
            "command": command,
            "targetRecordId": target_record_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = StockInsDeleteSessionActionKind(d.pop("kind"))




        command = StockInsDeleteSessionActionCommand(d.pop("command"))




        target_record_id = d.pop("targetRecordId")

        stock_ins_delete_session_action = cls(
            kind=kind,
            command=command,
            target_record_id=target_record_id,
        )

        return stock_ins_delete_session_action

