from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.stats_window import StatsWindow
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.delivery_stats_bucket import DeliveryStatsBucket





T = TypeVar("T", bound="DeliveryStats")



@_attrs_define
class DeliveryStats:
    """ An endpoint's deliveries per hour over a window, oldest hour first.

        Example:
            {'endpointId': 'whe_5n2k8q4x0c6v1b7m3z9w5r1t8y', 'window': '24h', 'from': '2026-11-21T09:00:00.000Z', 'to':
                '2026-11-22T09:00:00.000Z', 'buckets': [{'hour': '2026-11-22T08:00:00.000Z', 'delivered': 12, 'failed': 0,
                'dead': 0, 'p50LatencyMs': 75, 'p95LatencyMs': 130}]}

        Attributes:
            endpoint_id (str):
            window (StatsWindow): `24h`: the last 24 hours (24 hourly buckets); `7d`: the last 7 days (168). Example: 24h.
            from_ (datetime.datetime): The start of the first bucket.
            to (datetime.datetime): The end of the last bucket (the end of the current hour).
            buckets (list[DeliveryStatsBucket]): One per hour of the window (24 or 168), oldest first; hours without
                activity are zero.
     """

    endpoint_id: str
    window: StatsWindow
    from_: datetime.datetime
    to: datetime.datetime
    buckets: list[DeliveryStatsBucket]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.delivery_stats_bucket import DeliveryStatsBucket # noqa: PLC0415
        endpoint_id = self.endpoint_id

        window = self.window.value

        from_ = self.from_.isoformat()

        to = self.to.isoformat()

        buckets = []
        for buckets_item_data in self.buckets:
            buckets_item = buckets_item_data.to_dict()
            buckets.append(buckets_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "endpointId": endpoint_id,
            "window": window,
            "from": from_,
            "to": to,
            "buckets": buckets,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.delivery_stats_bucket import DeliveryStatsBucket # noqa: PLC0415
        d = dict(src_dict)
        endpoint_id = d.pop("endpointId")

        window = StatsWindow(d.pop("window"))




        from_ = datetime.datetime.fromisoformat(d.pop("from"))




        to = datetime.datetime.fromisoformat(d.pop("to"))




        buckets = []
        _buckets = d.pop("buckets")
        for buckets_item_data in (_buckets):
            buckets_item = DeliveryStatsBucket.from_dict(buckets_item_data)



            buckets.append(buckets_item)


        delivery_stats = cls(
            endpoint_id=endpoint_id,
            window=window,
            from_=from_,
            to=to,
            buckets=buckets,
        )


        delivery_stats.additional_properties = d
        return delivery_stats

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
