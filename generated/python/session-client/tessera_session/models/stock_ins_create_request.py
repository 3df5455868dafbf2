from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.stock_in_create_payload import StockInCreatePayload





T = TypeVar("T", bound="StockInsCreateRequest")



@_attrs_define
class StockInsCreateRequest:
    """ Request body of `stock-ins:create`.

        Attributes:
            payload (StockInCreatePayload): The fields of a new `stockIn` record; absent ones take their default or null.
            client_request_id (str | Unset): Optional idempotency key, an alternative to `X-Idempotent-Key` (empty: none).
     """

    payload: StockInCreatePayload
    client_request_id: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.stock_in_create_payload import StockInCreatePayload # noqa: PLC0415
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
        from ..models.stock_in_create_payload import StockInCreatePayload # noqa: PLC0415
        d = dict(src_dict)
        payload = StockInCreatePayload.from_dict(d.pop("payload"))




        client_request_id = d.pop("clientRequestId", UNSET)

        stock_ins_create_request = cls(
            payload=payload,
            client_request_id=client_request_id,
        )

        return stock_ins_create_request

