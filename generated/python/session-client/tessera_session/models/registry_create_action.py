from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.registry_create_action_command import RegistryCreateActionCommand
from ..models.registry_create_action_kind import RegistryCreateActionKind
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.registry_create_action_input import RegistryCreateActionInput





T = TypeVar("T", bound="RegistryCreateAction")



@_attrs_define
class RegistryCreateAction:
    """ Runs a published Open Platform command that creates a record.

        Attributes:
            kind (RegistryCreateActionKind):
            command (RegistryCreateActionCommand):
            input_ (RegistryCreateActionInput):
            target_pid (str | Unset):
     """

    kind: RegistryCreateActionKind
    command: RegistryCreateActionCommand
    input_: RegistryCreateActionInput
    target_pid: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.registry_create_action_input import RegistryCreateActionInput # noqa: PLC0415
        kind = self.kind.value

        command = self.command.value

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
        from ..models.registry_create_action_input import RegistryCreateActionInput # noqa: PLC0415
        d = dict(src_dict)
        kind = RegistryCreateActionKind(d.pop("kind"))




        command = RegistryCreateActionCommand(d.pop("command"))




        input_ = RegistryCreateActionInput.from_dict(d.pop("input"))




        target_pid = d.pop("targetPid", UNSET)

        registry_create_action = cls(
            kind=kind,
            command=command,
            input_=input_,
            target_pid=target_pid,
        )

        return registry_create_action

