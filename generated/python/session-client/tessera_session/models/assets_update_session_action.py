from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.assets_update_session_action_command import AssetsUpdateSessionActionCommand
from ..models.assets_update_session_action_kind import AssetsUpdateSessionActionKind
from typing import cast

if TYPE_CHECKING:
  from ..models.assets_update_session_action_payload import AssetsUpdateSessionActionPayload





T = TypeVar("T", bound="AssetsUpdateSessionAction")



@_attrs_define
class AssetsUpdateSessionAction:
    """ Runs `assets:update`.

        Attributes:
            kind (AssetsUpdateSessionActionKind):
            command (AssetsUpdateSessionActionCommand):
            target_record_id (str): The record to change: its id, or an event path.
            payload (AssetsUpdateSessionActionPayload): The `asset` fields to write.
     """

    kind: AssetsUpdateSessionActionKind
    command: AssetsUpdateSessionActionCommand
    target_record_id: str
    payload: AssetsUpdateSessionActionPayload





    def to_dict(self) -> dict[str, Any]:
        from ..models.assets_update_session_action_payload import AssetsUpdateSessionActionPayload # noqa: PLC0415
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
        from ..models.assets_update_session_action_payload import AssetsUpdateSessionActionPayload # noqa: PLC0415
        d = dict(src_dict)
        kind = AssetsUpdateSessionActionKind(d.pop("kind"))




        command = AssetsUpdateSessionActionCommand(d.pop("command"))




        target_record_id = d.pop("targetRecordId")

        payload = AssetsUpdateSessionActionPayload.from_dict(d.pop("payload"))




        assets_update_session_action = cls(
            kind=kind,
            command=command,
            target_record_id=target_record_id,
            payload=payload,
        )

        return assets_update_session_action

