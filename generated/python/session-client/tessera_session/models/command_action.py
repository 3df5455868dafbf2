from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.command_action_kind import CommandActionKind
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.command_action_input import CommandActionInput





T = TypeVar("T", bound="CommandAction")



@_attrs_define
class CommandAction:
    """ Runs a published Open Platform command (`POST /api/open/v1/commands/<code>:execute`) with
    `input`, which is validated against the command's input schema when the run executes.
    `targetPid` (the record to change) is required for commands that update a record.
    String values `"$.data.<field>"`, `"$.occurredAt"`, `"$.eventId"`, `"$.source"`,
    `"$.type"` and `"$.schemaVersion"` are looked up in the event; other values are constants.

        Example:
            {'kind': 'command', 'command': 'inventory.stock-ins.create', 'input': {'sku': '$.data.sku', 'quantity':
                '$.data.quantity', 'warehouse': '$.data.warehouse', 'receivedAt': '$.occurredAt'}}

        Attributes:
            kind (CommandActionKind):
            command (str): A registry command code (`assets.assign`, `inventory.stock-ins.create`).
            input_ (CommandActionInput): The command's input, free-form; values may be event paths.
            target_pid (str | Unset): The record to change (a pid, or an event path such as `"$.data.assetPid"`).
     """

    kind: CommandActionKind
    command: str
    input_: CommandActionInput
    target_pid: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.command_action_input import CommandActionInput # noqa: PLC0415
        kind = self.kind.value

        command = self.command

        input_ = self.input_.to_dict()

        target_pid = self.target_pid


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "kind": kind,
            "command": command,
            "input": input_,
        })
        if target_pid is not UNSET:
            field_dict["targetPid"] = target_pid

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.command_action_input import CommandActionInput # noqa: PLC0415
        d = dict(src_dict)
        kind = CommandActionKind(d.pop("kind"))




        command = d.pop("command")

        input_ = CommandActionInput.from_dict(d.pop("input"))




        target_pid = d.pop("targetPid", UNSET)

        command_action = cls(
            kind=kind,
            command=command,
            input_=input_,
            target_pid=target_pid,
        )

        return command_action

