from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.retried_automation_run_status import RetriedAutomationRunStatus






T = TypeVar("T", bound="RetriedAutomationRun")



@_attrs_define
class RetriedAutomationRun:
    """ 
        Example:
            {'runId': 'run_6k0p4t8x2b6f0j4n8r2v6z0d4h', 'status': 'pending'}

        Attributes:
            run_id (str):
            status (RetriedAutomationRunStatus):
     """

    run_id: str
    status: RetriedAutomationRunStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        run_id = self.run_id

        status = self.status.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "runId": run_id,
            "status": status,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        run_id = d.pop("runId")

        status = RetriedAutomationRunStatus(d.pop("status"))




        retried_automation_run = cls(
            run_id=run_id,
            status=status,
        )


        retried_automation_run.additional_properties = d
        return retried_automation_run

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
