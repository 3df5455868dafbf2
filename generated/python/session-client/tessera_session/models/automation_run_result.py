from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="AutomationRunResult")



@_attrs_define
class AutomationRunResult:
    """ What one action of a succeeded run did.

        Example:
            {'command': 'stock-ins:create', 'pid': 'rec_1d5h9m3q7u1y5c9g3k7p1t5x9b'}

        Attributes:
            command (str): The command code the action ran.
            pid (str): The public id of the record the action created or changed.
     """

    command: str
    pid: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        command = self.command

        pid = self.pid


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "command": command,
            "pid": pid,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        command = d.pop("command")

        pid = d.pop("pid")

        automation_run_result = cls(
            command=command,
            pid=pid,
        )


        automation_run_result.additional_properties = d
        return automation_run_result

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
