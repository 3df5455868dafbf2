from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.audit_entry_after_type_0 import AuditEntryAfterType0
  from ..models.audit_entry_before_type_0 import AuditEntryBeforeType0





T = TypeVar("T", bound="AuditEntry")



@_attrs_define
class AuditEntry:
    """ 
        Attributes:
            id (str):
            action (str):
            created_at (datetime.datetime):
            actor (None | str | Unset):
            target_type (None | str | Unset):
            target_id (None | str | Unset):
            before (AuditEntryBeforeType0 | None | Unset):
            after (AuditEntryAfterType0 | None | Unset):
            request_id (None | str | Unset):
     """

    id: str
    action: str
    created_at: datetime.datetime
    actor: None | str | Unset = UNSET
    target_type: None | str | Unset = UNSET
    target_id: None | str | Unset = UNSET
    before: AuditEntryBeforeType0 | None | Unset = UNSET
    after: AuditEntryAfterType0 | None | Unset = UNSET
    request_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.audit_entry_after_type_0 import AuditEntryAfterType0 # noqa: PLC0415
        from ..models.audit_entry_before_type_0 import AuditEntryBeforeType0 # noqa: PLC0415
        id = self.id

        action = self.action

        created_at = self.created_at.isoformat()

        actor: None | str | Unset
        if isinstance(self.actor, Unset):
            actor = UNSET
        else:
            actor = self.actor

        target_type: None | str | Unset
        if isinstance(self.target_type, Unset):
            target_type = UNSET
        else:
            target_type = self.target_type

        target_id: None | str | Unset
        if isinstance(self.target_id, Unset):
            target_id = UNSET
        else:
            target_id = self.target_id

        before: dict[str, Any] | None | Unset
        if isinstance(self.before, Unset):
            before = UNSET
        elif isinstance(self.before, AuditEntryBeforeType0):
            before = self.before.to_dict()
        else:
            before = self.before

        after: dict[str, Any] | None | Unset
        if isinstance(self.after, Unset):
            after = UNSET
        elif isinstance(self.after, AuditEntryAfterType0):
            after = self.after.to_dict()
        else:
            after = self.after

        request_id: None | str | Unset
        if isinstance(self.request_id, Unset):
            request_id = UNSET
        else:
            request_id = self.request_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "action": action,
            "created_at": created_at,
        })
        if actor is not UNSET:
            field_dict["actor"] = actor
        if target_type is not UNSET:
            field_dict["targetType"] = target_type
        if target_id is not UNSET:
            field_dict["targetId"] = target_id
        if before is not UNSET:
            field_dict["before"] = before
        if after is not UNSET:
            field_dict["after"] = after
        if request_id is not UNSET:
            field_dict["requestId"] = request_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.audit_entry_after_type_0 import AuditEntryAfterType0 # noqa: PLC0415
        from ..models.audit_entry_before_type_0 import AuditEntryBeforeType0 # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        action = d.pop("action")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        def _parse_actor(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        actor = _parse_actor(d.pop("actor", UNSET))


        def _parse_target_type(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        target_type = _parse_target_type(d.pop("targetType", UNSET))


        def _parse_target_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        target_id = _parse_target_id(d.pop("targetId", UNSET))


        def _parse_before(data: object) -> AuditEntryBeforeType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                before_type_0 = AuditEntryBeforeType0.from_dict(data)



                return before_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AuditEntryBeforeType0 | None | Unset, data)

        before = _parse_before(d.pop("before", UNSET))


        def _parse_after(data: object) -> AuditEntryAfterType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                after_type_0 = AuditEntryAfterType0.from_dict(data)



                return after_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AuditEntryAfterType0 | None | Unset, data)

        after = _parse_after(d.pop("after", UNSET))


        def _parse_request_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        request_id = _parse_request_id(d.pop("requestId", UNSET))


        audit_entry = cls(
            id=id,
            action=action,
            created_at=created_at,
            actor=actor,
            target_type=target_type,
            target_id=target_id,
            before=before,
            after=after,
            request_id=request_id,
        )


        audit_entry.additional_properties = d
        return audit_entry

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
