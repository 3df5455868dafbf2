from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.assets_assign_input import AssetsAssignInput





T = TypeVar("T", bound="AssetsAssignRequest")



@_attrs_define
class AssetsAssignRequest:
    """ Request body of `assets.assign`.

        Example:
            {'targetPid': 'rec_0c4m8n2p6r0t4v8x2z6b0d4f8h', 'input': {'assignee': 'Dana Whitfield'}}

        Attributes:
            target_pid (str): pid of the `assets` record to change.
            input_ (AssetsAssignInput): Input of `assets.assign`. Example: {'assignee': 'Dana Whitfield'}.
     """

    target_pid: str
    input_: AssetsAssignInput





    def to_dict(self) -> dict[str, Any]:
        from ..models.assets_assign_input import AssetsAssignInput # noqa: PLC0415
        target_pid = self.target_pid

        input_ = self.input_.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "targetPid": target_pid,
            "input": input_,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.assets_assign_input import AssetsAssignInput # noqa: PLC0415
        d = dict(src_dict)
        target_pid = d.pop("targetPid")

        input_ = AssetsAssignInput.from_dict(d.pop("input"))




        assets_assign_request = cls(
            target_pid=target_pid,
            input_=input_,
        )

        return assets_assign_request

