from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="RotateWebhookSecretRequest")



@_attrs_define
class RotateWebhookSecretRequest:
    """ 
        Example:
            {'overlapSeconds': 86400}

        Attributes:
            overlap_seconds (int): How long the secrets in force until now keep signing deliveries next to the new one,
                0 (not at all) to 7 days.
     """

    overlap_seconds: int





    def to_dict(self) -> dict[str, Any]:
        overlap_seconds = self.overlap_seconds


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "overlapSeconds": overlap_seconds,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        overlap_seconds = d.pop("overlapSeconds")

        rotate_webhook_secret_request = cls(
            overlap_seconds=overlap_seconds,
        )

        return rotate_webhook_secret_request

