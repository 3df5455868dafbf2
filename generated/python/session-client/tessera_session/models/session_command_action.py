from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.session_command_action_kind import SessionCommandActionKind
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.session_command_action_payload import SessionCommandActionPayload





T = TypeVar("T", bound="SessionCommandAction")



@_attrs_define
class SessionCommandAction:
    """ Runs a session command (`<page>:<action>`, as `/api/meta/commands/execute/{commandCode}`
    does) with `payload`, which is required except for deletes and validated against the
    model when the run executes. `targetRecordId` is required for updates and deletes.
    String values `"$.data.<field>"`, `"$.occurredAt"`, `"$.eventId"`, `"$.source"`,
    `"$.type"` and `"$.schemaVersion"` are looked up in the event; other values are constants.

        Example:
            {'kind': 'sessionCommand', 'command': 'stock-ins:create', 'payload': {'sku': '$.data.sku', 'quantity':
                '$.data.quantity', 'warehouse': '$.data.warehouse', 'receivedAt': '$.occurredAt', 'source': 'robot-fleet'}}

        Attributes:
            kind (SessionCommandActionKind):
            command (str): A session command code, for example `stock-ins:create`.
            payload (SessionCommandActionPayload | Unset): The record fields, free-form; values may be event paths.
            target_record_id (str | Unset): The record to update or delete (an id, or an event path).
     """

    kind: SessionCommandActionKind
    command: str
    payload: SessionCommandActionPayload | Unset = UNSET
    target_record_id: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.session_command_action_payload import SessionCommandActionPayload # noqa: PLC0415
        kind = self.kind.value

        command = self.command

        payload: dict[str, Any] | Unset = UNSET
        if not isinstance(self.payload, Unset):
            payload = self.payload.to_dict()

        target_record_id = self.target_record_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "kind": kind,
            "command": command,
        })
        if payload is not UNSET:
            field_dict["payload"] = payload
        if target_record_id is not UNSET:
            field_dict["targetRecordId"] = target_record_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.session_command_action_payload import SessionCommandActionPayload # noqa: PLC0415
        d = dict(src_dict)
        kind = SessionCommandActionKind(d.pop("kind"))




        command = d.pop("command")

        _payload = d.pop("payload", UNSET)
        payload: SessionCommandActionPayload | Unset
        if isinstance(_payload,  Unset):
            payload = UNSET
        else:
            payload = SessionCommandActionPayload.from_dict(_payload)




        target_record_id = d.pop("targetRecordId", UNSET)

        session_command_action = cls(
            kind=kind,
            command=command,
            payload=payload,
            target_record_id=target_record_id,
        )

        return session_command_action

