from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.stock_ins_delete_request_operation_type import StockInsDeleteRequestOperationType
from ..types import UNSET, Unset






T = TypeVar("T", bound="StockInsDeleteRequest")



@_attrs_define
class StockInsDeleteRequest:
    """ Request body of `stock-ins:delete`.

        Attributes:
            operation_type (StockInsDeleteRequestOperationType):
            target_record_id (str): Id of the `stock-ins` record.
            client_request_id (str | Unset): Optional idempotency key, an alternative to `X-Idempotent-Key` (empty: none).
     """

    operation_type: StockInsDeleteRequestOperationType
    target_record_id: str
    client_request_id: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        operation_type = self.operation_type.value

        target_record_id = self.target_record_id

        client_request_id = self.client_request_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "operationType": operation_type,
            "targetRecordId": target_record_id,
        })
        if client_request_id is not UNSET:
            field_dict["clientRequestId"] = client_request_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        operation_type = StockInsDeleteRequestOperationType(d.pop("operationType"))




        target_record_id = d.pop("targetRecordId")

        client_request_id = d.pop("clientRequestId", UNSET)

        stock_ins_delete_request = cls(
            operation_type=operation_type,
            target_record_id=target_record_id,
            client_request_id=client_request_id,
        )

        return stock_ins_delete_request

