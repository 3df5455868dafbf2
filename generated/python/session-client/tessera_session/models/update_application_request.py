from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.application_status import ApplicationStatus
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="UpdateApplicationRequest")



@_attrs_define
class UpdateApplicationRequest:
    """ Give `name`, `description`, `status`, or any of them together.

        Example:
            {'status': 'disabled'}

        Attributes:
            name (str | Unset): Display name with at least one non-space character; leading and trailing spaces are trimmed.
            description (None | str | Unset):
            status (ApplicationStatus | Unset): `active`, or `disabled` by an owner: its tokens dead, its credentials
                refused, its webhooks paused.
     """

    name: str | Unset = UNSET
    description: None | str | Unset = UNSET
    status: ApplicationStatus | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value



        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if name is not UNSET:
            field_dict["name"] = name
        if description is not UNSET:
            field_dict["description"] = description
        if status is not UNSET:
            field_dict["status"] = status

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name", UNSET)

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))


        _status = d.pop("status", UNSET)
        status: ApplicationStatus | Unset
        if isinstance(_status,  Unset):
            status = UNSET
        else:
            status = ApplicationStatus(_status)




        update_application_request = cls(
            name=name,
            description=description,
            status=status,
        )

        return update_application_request

