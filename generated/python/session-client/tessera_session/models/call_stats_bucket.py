from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.call_stats_bucket_statuses import CallStatsBucketStatuses





T = TypeVar("T", bound="CallStatsBucket")



@_attrs_define
class CallStatsBucket:
    """ One hour of an installation's audited Open Platform calls.

        Example:
            {'hour': '2026-11-22T08:00:00.000Z', 'total': 58, 'status2xx': 51, 'status3xx': 3, 'status4xx': 4, 'status5xx':
                0, 'statuses': {'200': 51, '304': 3, '404': 1, '412': 3}}

        Attributes:
            hour (datetime.datetime): The start of the bucket's hour (UTC); the bucket covers that hour. Example:
                2026-11-22T08:00:00.000Z.
            total (int): Every call in this hour.
            status2xx (int): Calls answered 2xx.
            status3xx (int): Calls answered 3xx (`304 Not Modified` to a conditional read).
            status4xx (int): Calls answered 4xx.
            status5xx (int): Calls answered 5xx.
            statuses (CallStatsBucketStatuses): Calls per HTTP status (the status as the key); only the statuses that
                occurred.
     """

    hour: datetime.datetime
    total: int
    status2xx: int
    status3xx: int
    status4xx: int
    status5xx: int
    statuses: CallStatsBucketStatuses
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.call_stats_bucket_statuses import CallStatsBucketStatuses # noqa: PLC0415
        hour = self.hour.isoformat()

        total = self.total

        status2xx = self.status2xx

        status3xx = self.status3xx

        status4xx = self.status4xx

        status5xx = self.status5xx

        statuses = self.statuses.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "hour": hour,
            "total": total,
            "status2xx": status2xx,
            "status3xx": status3xx,
            "status4xx": status4xx,
            "status5xx": status5xx,
            "statuses": statuses,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.call_stats_bucket_statuses import CallStatsBucketStatuses # noqa: PLC0415
        d = dict(src_dict)
        hour = datetime.datetime.fromisoformat(d.pop("hour"))




        total = d.pop("total")

        status2xx = d.pop("status2xx")

        status3xx = d.pop("status3xx")

        status4xx = d.pop("status4xx")

        status5xx = d.pop("status5xx")

        statuses = CallStatsBucketStatuses.from_dict(d.pop("statuses"))




        call_stats_bucket = cls(
            hour=hour,
            total=total,
            status2xx=status2xx,
            status3xx=status3xx,
            status4xx=status4xx,
            status5xx=status5xx,
            statuses=statuses,
        )


        call_stats_bucket.additional_properties = d
        return call_stats_bucket

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
