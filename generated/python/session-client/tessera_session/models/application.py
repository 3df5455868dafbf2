from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.application_status import ApplicationStatus
from ..models.member_role import MemberRole
from typing import cast
import datetime






T = TypeVar("T", bound="Application")



@_attrs_define
class Application:
    """ An application as the caller sees it; `role` is the caller's own role in it.

        Example:
            {'appId': 'app_cqdc33f1w4gfcs34ej039c6r21', 'name': 'Fleet Sync', 'description': 'Synchronises asset assignments
                with the fleet system.', 'status': 'active', 'role': 'owner', 'created_at': '2026-11-22T08:00:00.000Z'}

        Attributes:
            app_id (str): Public id of the application.
            name (str):
            description (None | str):
            status (ApplicationStatus): `active`, or `disabled` by an owner: its tokens dead, its credentials refused, its
                webhooks paused.
            role (MemberRole): A member's role in an application: `owner` (everything, including members, installations
                and credentials), `maintainer` and `viewer` (read the application, its members and its
                installations).
                 Example: maintainer.
            created_at (datetime.datetime):
     """

    app_id: str
    name: str
    description: None | str
    status: ApplicationStatus
    role: MemberRole
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        app_id = self.app_id

        name = self.name

        description: None | str
        description = self.description

        status = self.status.value

        role = self.role.value

        created_at = self.created_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "appId": app_id,
            "name": name,
            "description": description,
            "status": status,
            "role": role,
            "created_at": created_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        app_id = d.pop("appId")

        name = d.pop("name")

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))


        status = ApplicationStatus(d.pop("status"))




        role = MemberRole(d.pop("role"))




        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        application = cls(
            app_id=app_id,
            name=name,
            description=description,
            status=status,
            role=role,
            created_at=created_at,
        )


        application.additional_properties = d
        return application

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
