from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.inventory_stock_ins_create_command_action_command import InventoryStockInsCreateCommandActionCommand
from ..models.inventory_stock_ins_create_command_action_kind import InventoryStockInsCreateCommandActionKind
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.inventory_stock_ins_create_command_action_input import InventoryStockInsCreateCommandActionInput





T = TypeVar("T", bound="InventoryStockInsCreateCommandAction")



@_attrs_define
class InventoryStockInsCreateCommandAction:
    """ Runs `inventory.stock-ins.create`.

        Attributes:
            kind (InventoryStockInsCreateCommandActionKind):
            command (InventoryStockInsCreateCommandActionCommand):
            input_ (InventoryStockInsCreateCommandActionInput): The input of `inventory.stock-ins.create`.
            target_pid (str | Unset): The record to change: its id, or an event path.
     """

    kind: InventoryStockInsCreateCommandActionKind
    command: InventoryStockInsCreateCommandActionCommand
    input_: InventoryStockInsCreateCommandActionInput
    target_pid: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.inventory_stock_ins_create_command_action_input import InventoryStockInsCreateCommandActionInput # noqa: PLC0415
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
        from ..models.inventory_stock_ins_create_command_action_input import InventoryStockInsCreateCommandActionInput # noqa: PLC0415
        d = dict(src_dict)
        kind = InventoryStockInsCreateCommandActionKind(d.pop("kind"))




        command = InventoryStockInsCreateCommandActionCommand(d.pop("command"))




        input_ = InventoryStockInsCreateCommandActionInput.from_dict(d.pop("input"))




        target_pid = d.pop("targetPid", UNSET)

        inventory_stock_ins_create_command_action = cls(
            kind=kind,
            command=command,
            input_=input_,
            target_pid=target_pid,
        )

        return inventory_stock_ins_create_command_action

