from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.assets_create_session_action_command import AssetsCreateSessionActionCommand
from ..models.assets_create_session_action_kind import AssetsCreateSessionActionKind
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.assets_create_session_action_payload import AssetsCreateSessionActionPayload





T = TypeVar("T", bound="AssetsCreateSessionAction")



@_attrs_define
class AssetsCreateSessionAction:
    """ Runs `assets:create`.

        Attributes:
            kind (AssetsCreateSessionActionKind):
            command (AssetsCreateSessionActionCommand):
            payload (AssetsCreateSessionActionPayload): The `asset` fields to write.
            target_record_id (str | Unset): The record to change: its id, or an event path.
     """

    kind: AssetsCreateSessionActionKind
    command: AssetsCreateSessionActionCommand
    payload: AssetsCreateSessionActionPayload
    target_record_id: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.assets_create_session_action_payload import AssetsCreateSessionActionPayload # noqa: PLC0415
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
        from ..models.assets_create_session_action_payload import AssetsCreateSessionActionPayload # noqa: PLC0415
        d = dict(src_dict)
        kind = AssetsCreateSessionActionKind(d.pop("kind"))




        command = AssetsCreateSessionActionCommand(d.pop("command"))




        payload = AssetsCreateSessionActionPayload.from_dict(d.pop("payload"))




        target_record_id = d.pop("targetRecordId", UNSET)

        assets_create_session_action = cls(
            kind=kind,
            command=command,
            payload=payload,
            target_record_id=target_record_id,
        )

        return assets_create_session_action

