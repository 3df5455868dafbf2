from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.environment import Environment






T = TypeVar("T", bound="CallerInstallation")



@_attrs_define
class CallerInstallation:
    """ The installation the token acts for.

        Attributes:
            installation_id (str):
            environment (Environment): The environment an installation belongs to.
     """

    installation_id: str
    environment: Environment
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        installation_id = self.installation_id

        environment = self.environment.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "installationId": installation_id,
            "environment": environment,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        installation_id = d.pop("installationId")

        environment = Environment(d.pop("environment"))




        caller_installation = cls(
            installation_id=installation_id,
            environment=environment,
        )


        caller_installation.additional_properties = d
        return caller_installation

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
