from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.command_request_operation_type import CommandRequestOperationType
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.command_request_payload import CommandRequestPayload





T = TypeVar("T", bound="CommandRequest")



@_attrs_define
class CommandRequest:
    """ 
        Attributes:
            payload (CommandRequestPayload | Unset): Business fields of the record (create and update).
            operation_type (CommandRequestOperationType | Unset): Omitted for create.
            target_record_id (str | Unset): Id of the record for update and delete.
            client_request_id (str | Unset): Optional idempotency key, an alternative to `X-Idempotent-Key`.
     """

    payload: CommandRequestPayload | Unset = UNSET
    operation_type: CommandRequestOperationType | Unset = UNSET
    target_record_id: str | Unset = UNSET
    client_request_id: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.command_request_payload import CommandRequestPayload # noqa: PLC0415
        payload: dict[str, Any] | Unset = UNSET
        if not isinstance(self.payload, Unset):
            payload = self.payload.to_dict()

        operation_type: str | Unset = UNSET
        if not isinstance(self.operation_type, Unset):
            operation_type = self.operation_type.value


        target_record_id = self.target_record_id

        client_request_id = self.client_request_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if payload is not UNSET:
            field_dict["payload"] = payload
        if operation_type is not UNSET:
            field_dict["operationType"] = operation_type
        if target_record_id is not UNSET:
            field_dict["targetRecordId"] = target_record_id
        if client_request_id is not UNSET:
            field_dict["clientRequestId"] = client_request_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.command_request_payload import CommandRequestPayload # noqa: PLC0415
        d = dict(src_dict)
        _payload = d.pop("payload", UNSET)
        payload: CommandRequestPayload | Unset
        if isinstance(_payload,  Unset):
            payload = UNSET
        else:
            payload = CommandRequestPayload.from_dict(_payload)




        _operation_type = d.pop("operationType", UNSET)
        operation_type: CommandRequestOperationType | Unset
        if isinstance(_operation_type,  Unset):
            operation_type = UNSET
        else:
            operation_type = CommandRequestOperationType(_operation_type)




        target_record_id = d.pop("targetRecordId", UNSET)

        client_request_id = d.pop("clientRequestId", UNSET)

        command_request = cls(
            payload=payload,
            operation_type=operation_type,
            target_record_id=target_record_id,
            client_request_id=client_request_id,
        )

        return command_request

