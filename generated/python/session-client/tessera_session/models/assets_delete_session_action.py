from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.assets_delete_session_action_command import AssetsDeleteSessionActionCommand
from ..models.assets_delete_session_action_kind import AssetsDeleteSessionActionKind






T = TypeVar("T", bound="AssetsDeleteSessionAction")



@_attrs_define
class AssetsDeleteSessionAction:
    """ Runs `assets:delete`.

        Attributes:
            kind (AssetsDeleteSessionActionKind):
            command (AssetsDeleteSessionActionCommand):
            target_record_id (str): The record to change: its id, or an event path.
     """

    kind: AssetsDeleteSessionActionKind
    command: AssetsDeleteSessionActionCommand
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
        kind = AssetsDeleteSessionActionKind(d.pop("kind"))




        command = AssetsDeleteSessionActionCommand(d.pop("command"))




        target_record_id = d.pop("targetRecordId")

        assets_delete_session_action = cls(
            kind=kind,
            command=command,
            target_record_id=target_record_id,
        )

        return assets_delete_session_action

