from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.assets_assignment_changed_payload_status import AssetsAssignmentChangedPayloadStatus
from typing import cast






T = TypeVar("T", bound="AssetsAssignmentChangedPayload")



@_attrs_define
class AssetsAssignmentChangedPayload:
    """ `data` of the `assets.assignment.changed` event.

        Example:
            {'pid': 'rec_0c4m8n2p6r0t4v8x2z6b0d4f8h', 'assignee': 'Dana Whitfield', 'status': 'assigned',
                'previousAssignee': None}

        Attributes:
            pid (str): pid of the `assets` record.
            assignee (None | str): Assignee
            status (AssetsAssignmentChangedPayloadStatus): Status
            previous_assignee (None | str): `assignee` before the change.
     """

    pid: str
    assignee: None | str
    status: AssetsAssignmentChangedPayloadStatus
    previous_assignee: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        pid = self.pid

        assignee: None | str
        assignee = self.assignee

        status = self.status.value

        previous_assignee: None | str
        previous_assignee = self.previous_assignee


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "pid": pid,
            "assignee": assignee,
            "status": status,
            "previousAssignee": previous_assignee,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        pid = d.pop("pid")

        def _parse_assignee(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        assignee = _parse_assignee(d.pop("assignee"))


        status = AssetsAssignmentChangedPayloadStatus(d.pop("status"))




        def _parse_previous_assignee(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        previous_assignee = _parse_previous_assignee(d.pop("previousAssignee"))


        assets_assignment_changed_payload = cls(
            pid=pid,
            assignee=assignee,
            status=status,
            previous_assignee=previous_assignee,
        )


        assets_assignment_changed_payload.additional_properties = d
        return assets_assignment_changed_payload

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
