from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.delivery_attempt_outcome import DeliveryAttemptOutcome
from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="DeliveryAttempt")



@_attrs_define
class DeliveryAttempt:
    """ One attempt to deliver, oldest first. Its row is written before the request is sent, so an
    attempt whose worker stopped (killed, crashed) before recording the answer is listed too,
    as `unknown`: the receiver may have got that request, and the delivery is sent again with
    the same delivery id.

        Example:
            {'attemptedAt': '2026-11-22T08:00:00.000Z', 'outcome': 'failed', 'httpStatus': 503, 'latencyMs': 212, 'error':
                None, 'worker': 'worker-1.example:4242/0', 'responseExcerpt': 'Service Unavailable'}

        Attributes:
            attempted_at (datetime.datetime): When the request started.
            outcome (DeliveryAttemptOutcome):
            http_status (int | None): The receiver's HTTP status; null when no response came (refused URL, timeout, network
                error).
            latency_ms (int | None): Milliseconds until the response or the failure (0 when the URL was refused and nothing
                was sent).
            error (None | str): Why the attempt got no response (refused URL, timeout, network error); null when a response
                came.
            worker (None | str | Unset): The worker that made the attempt (host, process id and task), for operators.
            response_excerpt (None | str | Unset): The start of the receiver's response body (at most 500 characters), as
                text.
            request_id (None | str | Unset): The delivery's `requestId`, the call whose event this attempt sent.
     """

    attempted_at: datetime.datetime
    outcome: DeliveryAttemptOutcome
    http_status: int | None
    latency_ms: int | None
    error: None | str
    worker: None | str | Unset = UNSET
    response_excerpt: None | str | Unset = UNSET
    request_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        attempted_at = self.attempted_at.isoformat()

        outcome = self.outcome.value

        http_status: int | None
        http_status = self.http_status

        latency_ms: int | None
        latency_ms = self.latency_ms

        error: None | str
        error = self.error

        worker: None | str | Unset
        if isinstance(self.worker, Unset):
            worker = UNSET
        else:
            worker = self.worker

        response_excerpt: None | str | Unset
        if isinstance(self.response_excerpt, Unset):
            response_excerpt = UNSET
        else:
            response_excerpt = self.response_excerpt

        request_id: None | str | Unset
        if isinstance(self.request_id, Unset):
            request_id = UNSET
        else:
            request_id = self.request_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "attemptedAt": attempted_at,
            "outcome": outcome,
            "httpStatus": http_status,
            "latencyMs": latency_ms,
            "error": error,
        })
        if worker is not UNSET:
            field_dict["worker"] = worker
        if response_excerpt is not UNSET:
            field_dict["responseExcerpt"] = response_excerpt
        if request_id is not UNSET:
            field_dict["requestId"] = request_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        attempted_at = datetime.datetime.fromisoformat(d.pop("attemptedAt"))




        outcome = DeliveryAttemptOutcome(d.pop("outcome"))




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


        def _parse_worker(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        worker = _parse_worker(d.pop("worker", UNSET))


        def _parse_response_excerpt(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        response_excerpt = _parse_response_excerpt(d.pop("responseExcerpt", UNSET))


        def _parse_request_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        request_id = _parse_request_id(d.pop("requestId", UNSET))


        delivery_attempt = cls(
            attempted_at=attempted_at,
            outcome=outcome,
            http_status=http_status,
            latency_ms=latency_ms,
            error=error,
            worker=worker,
            response_excerpt=response_excerpt,
            request_id=request_id,
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
