from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="DeliveryStatsBucket")



@_attrs_define
class DeliveryStatsBucket:
    """ One hour of an endpoint's deliveries.

        Example:
            {'hour': '2026-11-22T07:00:00.000Z', 'delivered': 41, 'failed': 6, 'dead': 1, 'p50LatencyMs': 87,
                'p95LatencyMs': 412}

        Attributes:
            hour (datetime.datetime): The start of the bucket's hour (UTC); the bucket covers that hour. Example:
                2026-11-22T08:00:00.000Z.
            delivered (int): Attempts made in this hour that the receiver answered 2xx.
            failed (int): The other attempts made in this hour (another status, or no answer).
            dead (int): Deliveries that died in this hour and are still dead.
            p_50_latency_ms (int | None): Median latency of the first attempts made in this hour, in milliseconds; null when
                none.
            p_95_latency_ms (int | None): 95th percentile of the same latencies; null when none.
     """

    hour: datetime.datetime
    delivered: int
    failed: int
    dead: int
    p_50_latency_ms: int | None
    p_95_latency_ms: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        hour = self.hour.isoformat()

        delivered = self.delivered

        failed = self.failed

        dead = self.dead

        p_50_latency_ms: int | None
        p_50_latency_ms = self.p_50_latency_ms

        p_95_latency_ms: int | None
        p_95_latency_ms = self.p_95_latency_ms


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "hour": hour,
            "delivered": delivered,
            "failed": failed,
            "dead": dead,
            "p50LatencyMs": p_50_latency_ms,
            "p95LatencyMs": p_95_latency_ms,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        hour = datetime.datetime.fromisoformat(d.pop("hour"))




        delivered = d.pop("delivered")

        failed = d.pop("failed")

        dead = d.pop("dead")

        def _parse_p_50_latency_ms(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        p_50_latency_ms = _parse_p_50_latency_ms(d.pop("p50LatencyMs"))


        def _parse_p_95_latency_ms(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        p_95_latency_ms = _parse_p_95_latency_ms(d.pop("p95LatencyMs"))


        delivery_stats_bucket = cls(
            hour=hour,
            delivered=delivered,
            failed=failed,
            dead=dead,
            p_50_latency_ms=p_50_latency_ms,
            p_95_latency_ms=p_95_latency_ms,
        )


        delivery_stats_bucket.additional_properties = d
        return delivery_stats_bucket

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
