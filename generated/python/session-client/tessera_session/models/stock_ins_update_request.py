from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.stock_ins_update_request_operation_type import StockInsUpdateRequestOperationType
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.stock_in_update_payload import StockInUpdatePayload





T = TypeVar("T", bound="StockInsUpdateRequest")



@_attrs_define
class StockInsUpdateRequest:
    """ Request body of `stock-ins:update`.

        Attributes:
            operation_type (StockInsUpdateRequestOperationType):
            target_record_id (str): Id of the `stock-ins` record.
            payload (StockInUpdatePayload): The `stockIn` fields to change; the others keep their values.
            client_request_id (str | Unset): Optional idempotency key, an alternative to `X-Idempotent-Key` (empty: none).
     """

    operation_type: StockInsUpdateRequestOperationType
    target_record_id: str
    payload: StockInUpdatePayload
    client_request_id: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.stock_in_update_payload import StockInUpdatePayload # noqa: PLC0415
        operation_type = self.operation_type.value

        target_record_id = self.target_record_id

        payload = self.payload.to_dict()

        client_request_id = self.client_request_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "operationType": operation_type,
            "targetRecordId": target_record_id,
            "payload": payload,
        })
        if client_request_id is not UNSET:
            field_dict["clientRequestId"] = client_request_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.stock_in_update_payload import StockInUpdatePayload # noqa: PLC0415
        d = dict(src_dict)
        operation_type = StockInsUpdateRequestOperationType(d.pop("operationType"))




        target_record_id = d.pop("targetRecordId")

        payload = StockInUpdatePayload.from_dict(d.pop("payload"))




        client_request_id = d.pop("clientRequestId", UNSET)

        stock_ins_update_request = cls(
            operation_type=operation_type,
            target_record_id=target_record_id,
            payload=payload,
            client_request_id=client_request_id,
        )

        return stock_ins_update_request

