from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="DeliveryAttempt")



@_attrs_define
class DeliveryAttempt:
    """ One attempt to deliver, oldest first.

        Example:
            {'attemptedAt': '2026-11-22T08:00:00.000Z', 'httpStatus': 503, 'latencyMs': 212, 'error': None}

        Attributes:
            attempted_at (datetime.datetime):
            http_status (int | None): The receiver's HTTP status; null when no response came (refused URL, timeout, network
                error).
            latency_ms (int | None): Milliseconds until the response or the failure (0 when the URL was refused and nothing
                was sent).
            error (None | str): Why the attempt got no response (refused URL, timeout, network error); null when a response
                came.
     """

    attempted_at: datetime.datetime
    http_status: int | None
    latency_ms: int | None
    error: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        attempted_at = self.attempted_at.isoformat()

        http_status: int | None
        http_status = self.http_status

        latency_ms: int | None
        latency_ms = self.latency_ms

        error: None | str
        error = self.error


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "attemptedAt": attempted_at,
            "httpStatus": http_status,
            "latencyMs": latency_ms,
            "error": error,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        attempted_at = datetime.datetime.fromisoformat(d.pop("attemptedAt"))




        def _parse_http_status(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        http_status = _parse_http_status(d.pop("httpStatus"))


        def _parse_latency_ms(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        latency_ms = _parse_latency_ms(d.pop("latencyMs"))


        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))


        delivery_attempt = cls(
            attempted_at=attempted_at,
            http_status=http_status,
            latency_ms=latency_ms,
            error=error,
        )


        delivery_attempt.additional_properties = d
        return delivery_attempt

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
