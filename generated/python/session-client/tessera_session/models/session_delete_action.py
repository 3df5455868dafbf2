from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.session_delete_action_command import SessionDeleteActionCommand
from ..models.session_delete_action_kind import SessionDeleteActionKind
from ..types import UNSET, Unset






T = TypeVar("T", bound="SessionDeleteAction")



@_attrs_define
class SessionDeleteAction:
    """ Runs a session command that deletes a record.

        Attributes:
            kind (SessionDeleteActionKind):
            command (SessionDeleteActionCommand):
            target_record_id (str):
            payload (Any | Unset): Ignored by a delete.
     """

    kind: SessionDeleteActionKind
    command: SessionDeleteActionCommand
    target_record_id: str
    payload: Any | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        kind = self.kind.value

        command = self.command.value

        target_record_id = self.target_record_id

        payload = self.payload


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "kind": kind,
            "command": command,
            "targetRecordId": target_record_id,
        })
        if payload is not UNSET:
            field_dict["payload"] = payload

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = SessionDeleteActionKind(d.pop("kind"))




        command = SessionDeleteActionCommand(d.pop("command"))




        target_record_id = d.pop("targetRecordId")

        payload = d.pop("payload", UNSET)

        session_delete_action = cls(
            kind=kind,
            command=command,
            target_record_id=target_record_id,
            payload=payload,
        )

        return session_delete_action

