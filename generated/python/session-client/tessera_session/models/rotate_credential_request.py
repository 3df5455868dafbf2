from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="RotateCredentialRequest")



@_attrs_define
class RotateCredentialRequest:
    """ 
        Example:
            {'graceSeconds': 86400}

        Attributes:
            grace_seconds (int): How long the old pair keeps obtaining tokens, 5 minutes to 7 days.
     """

    grace_seconds: int





    def to_dict(self) -> dict[str, Any]:
        grace_seconds = self.grace_seconds


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "graceSeconds": grace_seconds,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        grace_seconds = d.pop("graceSeconds")

        rotate_credential_request = cls(
            grace_seconds=grace_seconds,
        )

        return rotate_credential_request

