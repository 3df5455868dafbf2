from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.session_update_action_command import SessionUpdateActionCommand
from ..models.session_update_action_kind import SessionUpdateActionKind
from typing import cast

if TYPE_CHECKING:
  from ..models.session_update_action_payload import SessionUpdateActionPayload





T = TypeVar("T", bound="SessionUpdateAction")



@_attrs_define
class SessionUpdateAction:
    """ Runs a session command that updates a record.

        Attributes:
            kind (SessionUpdateActionKind):
            command (SessionUpdateActionCommand):
            payload (SessionUpdateActionPayload):
            target_record_id (str):
     """

    kind: SessionUpdateActionKind
    command: SessionUpdateActionCommand
    payload: SessionUpdateActionPayload
    target_record_id: str





    def to_dict(self) -> dict[str, Any]:
        from ..models.session_update_action_payload import SessionUpdateActionPayload # noqa: PLC0415
        kind = self.kind.value

        command = self.command.value

        payload = self.payload.to_dict()

        target_record_id = self.target_record_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "kind": kind,
            "command": command,
            "payload": payload,
            "targetRecordId": target_record_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.session_update_action_payload import SessionUpdateActionPayload # noqa: PLC0415
        d = dict(src_dict)
        kind = SessionUpdateActionKind(d.pop("kind"))




        command = SessionUpdateActionCommand(d.pop("command"))




        payload = SessionUpdateActionPayload.from_dict(d.pop("payload"))




        target_record_id = d.pop("targetRecordId")

        session_update_action = cls(
            kind=kind,
            command=command,
            payload=payload,
            target_record_id=target_record_id,
        )

        return session_update_action

