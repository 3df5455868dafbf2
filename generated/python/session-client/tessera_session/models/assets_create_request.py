from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.asset_create_payload import AssetCreatePayload





T = TypeVar("T", bound="AssetsCreateRequest")



@_attrs_define
class AssetsCreateRequest:
    """ Request body of `assets:create`.

        Attributes:
            payload (AssetCreatePayload): The fields of a new `asset` record; absent ones take their default or null.
            client_request_id (str | Unset): Optional idempotency key, an alternative to `X-Idempotent-Key` (empty: none).
     """

    payload: AssetCreatePayload
    client_request_id: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.asset_create_payload import AssetCreatePayload # noqa: PLC0415
        payload = self.payload.to_dict()

        client_request_id = self.client_request_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "payload": payload,
        })
        if client_request_id is not UNSET:
            field_dict["clientRequestId"] = client_request_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.asset_create_payload import AssetCreatePayload # noqa: PLC0415
        d = dict(src_dict)
        payload = AssetCreatePayload.from_dict(d.pop("payload"))




        client_request_id = d.pop("clientRequestId", UNSET)

        assets_create_request = cls(
            payload=payload,
            client_request_id=client_request_id,
        )

        return assets_create_request

