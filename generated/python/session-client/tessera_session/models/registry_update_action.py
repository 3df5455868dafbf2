from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.registry_update_action_command import RegistryUpdateActionCommand
from ..models.registry_update_action_kind import RegistryUpdateActionKind
from typing import cast

if TYPE_CHECKING:
  from ..models.registry_update_action_input import RegistryUpdateActionInput





T = TypeVar("T", bound="RegistryUpdateAction")



@_attrs_define
class RegistryUpdateAction:
    """ Runs a published Open Platform command that updates a record.

        Attributes:
            kind (RegistryUpdateActionKind):
            command (RegistryUpdateActionCommand):
            input_ (RegistryUpdateActionInput):
            target_pid (str):
     """

    kind: RegistryUpdateActionKind
    command: RegistryUpdateActionCommand
    input_: RegistryUpdateActionInput
    target_pid: str





    def to_dict(self) -> dict[str, Any]:
        from ..models.registry_update_action_input import RegistryUpdateActionInput # noqa: PLC0415
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
        from ..models.registry_update_action_input import RegistryUpdateActionInput # noqa: PLC0415
        d = dict(src_dict)
        kind = RegistryUpdateActionKind(d.pop("kind"))




        command = RegistryUpdateActionCommand(d.pop("command"))




        input_ = RegistryUpdateActionInput.from_dict(d.pop("input"))




        target_pid = d.pop("targetPid")

        registry_update_action = cls(
            kind=kind,
            command=command,
            input_=input_,
            target_pid=target_pid,
        )

        return registry_update_action

