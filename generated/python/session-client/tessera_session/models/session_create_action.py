from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.session_create_action_command import SessionCreateActionCommand
from ..models.session_create_action_kind import SessionCreateActionKind
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.session_create_action_payload import SessionCreateActionPayload





T = TypeVar("T", bound="SessionCreateAction")



@_attrs_define
class SessionCreateAction:
    """ Runs a session command that creates a record.

        Attributes:
            kind (SessionCreateActionKind):
            command (SessionCreateActionCommand):
            payload (SessionCreateActionPayload):
            target_record_id (str | Unset):
     """

    kind: SessionCreateActionKind
    command: SessionCreateActionCommand
    payload: SessionCreateActionPayload
    target_record_id: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.session_create_action_payload import SessionCreateActionPayload # noqa: PLC0415
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
        from ..models.session_create_action_payload import SessionCreateActionPayload # noqa: PLC0415
        d = dict(src_dict)
        kind = SessionCreateActionKind(d.pop("kind"))




        command = SessionCreateActionCommand(d.pop("command"))




        payload = SessionCreateActionPayload.from_dict(d.pop("payload"))




        target_record_id = d.pop("targetRecordId", UNSET)

        session_create_action = cls(
            kind=kind,
            command=command,
            payload=payload,
            target_record_id=target_record_id,
        )

        return session_create_action

