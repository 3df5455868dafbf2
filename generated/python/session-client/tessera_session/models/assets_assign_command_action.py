from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.assets_assign_command_action_command import AssetsAssignCommandActionCommand
from ..models.assets_assign_command_action_kind import AssetsAssignCommandActionKind
from typing import cast

if TYPE_CHECKING:
  from ..models.assets_assign_command_action_input import AssetsAssignCommandActionInput





T = TypeVar("T", bound="AssetsAssignCommandAction")



@_attrs_define
class AssetsAssignCommandAction:
    """ Runs `assets.assign`.

        Attributes:
            kind (AssetsAssignCommandActionKind):
            command (AssetsAssignCommandActionCommand):
            input_ (AssetsAssignCommandActionInput): The input of `assets.assign`.
            target_pid (str): The record to change: its id, or an event path.
     """

    kind: AssetsAssignCommandActionKind
    command: AssetsAssignCommandActionCommand
    input_: AssetsAssignCommandActionInput
    target_pid: str





    def to_dict(self) -> dict[str, Any]:
        from ..models.assets_assign_command_action_input import AssetsAssignCommandActionInput # noqa: PLC0415
        kind = self.kind.value

        command = self.command.value

        input_ = self.input_.to_dict()

        target_pid = self.target_pid


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "kind": kind,
            "command": command,
            "input": input_,
            "targetPid": target_pid,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.assets_assign_command_action_input import AssetsAssignCommandActionInput # noqa: PLC0415
        d = dict(src_dict)
        kind = AssetsAssignCommandActionKind(d.pop("kind"))




        command = AssetsAssignCommandActionCommand(d.pop("command"))




        input_ = AssetsAssignCommandActionInput.from_dict(d.pop("input"))




        target_pid = d.pop("targetPid")

        assets_assign_command_action = cls(
            kind=kind,
            command=command,
            input_=input_,
            target_pid=target_pid,
        )

        return assets_assign_command_action

