from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="TenantRole")



@_attrs_define
class TenantRole:
    """ A role of the tenant, what it grants, and the template it follows.

        Attributes:
            code (str):
            name (str):
            permissions (list[str]): The permission codes the role grants, sorted (`*` grants every permission).
            template (list[str] | None): The permissions of its `models.yaml` template, sorted; null when no template
                declares the role.
            extra (list[str]): What the role grants beyond its template.
            missing (list[str]): What its template grants and the role does not, until `tessera migrate` runs.
     """

    code: str
    name: str
    permissions: list[str]
    template: list[str] | None
    extra: list[str]
    missing: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        code = self.code

        name = self.name

        permissions = self.permissions



        template: list[str] | None
        if isinstance(self.template, list):
            template = self.template


        else:
            template = self.template

        extra = self.extra



        missing = self.missing




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "code": code,
            "name": name,
            "permissions": permissions,
            "template": template,
            "extra": extra,
            "missing": missing,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        code = d.pop("code")

        name = d.pop("name")

        permissions = cast(list[str], d.pop("permissions"))


        def _parse_template(data: object) -> list[str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                template_type_0 = cast(list[str], data)

                return template_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None, data)

        template = _parse_template(d.pop("template"))


        extra = cast(list[str], d.pop("extra"))


        missing = cast(list[str], d.pop("missing"))


        tenant_role = cls(
            code=code,
            name=name,
            permissions=permissions,
            template=template,
            extra=extra,
            missing=missing,
        )


        tenant_role.additional_properties = d
        return tenant_role

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
