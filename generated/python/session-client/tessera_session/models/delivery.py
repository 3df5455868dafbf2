from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.delivery_status import DeliveryStatus
from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.delivery_attempt import DeliveryAttempt





T = TypeVar("T", bound="Delivery")



@_attrs_define
class Delivery:
    """ The delivery of one event to one endpoint, with its attempts.

        Example:
            {'deliveryId': 'dlv_8c3n6q1v4x7z0b2d5f8h1k4m7p', 'endpointId': 'whe_5n2k8q4x0c6v1b7m3z9w5r1t8y', 'eventId':
                'evt_2r5t8w1y4a7c0e3g6j9m2p5s8v', 'eventType': 'inventory.stock-in.created', 'status': 'delivered',
                'attemptCount': 1, 'nextAttemptAt': None, 'attempts': [{'attemptedAt': '2026-11-22T08:00:00.000Z', 'outcome':
                'succeeded', 'httpStatus': 200, 'latencyMs': 87, 'error': None}], 'created_at': '2026-11-22T08:00:00.000Z',
                'updated_at': '2026-11-22T08:00:00.000Z'}

        Attributes:
            delivery_id (str): Sent as `X-Webhook-Delivery`; the same on retries and replays.
            endpoint_id (str):
            event_id (str): The event's id (the body's `id`); the same on retries and replays.
            event_type (str):
            status (DeliveryStatus): `pending` (due now or at `nextAttemptAt`, also after a replay), `retrying` (failed,
                tried
                again at `nextAttemptAt`), `delivered` (answered 2xx) or `dead` (every retry failed;
                replayable by an owner).
                 Example: delivered.
            attempt_count (int): Attempts since the delivery was created or last replayed (the list field `attempts`).
            next_attempt_at (datetime.datetime | None): When the next attempt is due; null when none is planned.
            attempts (list[DeliveryAttempt]): Every attempt, oldest first (a replay keeps the earlier ones).
            created_at (datetime.datetime):
            updated_at (datetime.datetime):
            request_id (None | str | Unset): The `X-Request-Id` of the call whose event this delivers; null for an event no
                call caused.
     """

    delivery_id: str
    endpoint_id: str
    event_id: str
    event_type: str
    status: DeliveryStatus
    attempt_count: int
    next_attempt_at: datetime.datetime | None
    attempts: list[DeliveryAttempt]
    created_at: datetime.datetime
    updated_at: datetime.datetime
    request_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.delivery_attempt import DeliveryAttempt # noqa: PLC0415
        delivery_id = self.delivery_id

        endpoint_id = self.endpoint_id

        event_id = self.event_id

        event_type = self.event_type

        status = self.status.value

        attempt_count = self.attempt_count

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        attempts = []
        for attempts_item_data in self.attempts:
            attempts_item = attempts_item_data.to_dict()
            attempts.append(attempts_item)



        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        request_id: None | str | Unset
        if isinstance(self.request_id, Unset):
            request_id = UNSET
        else:
            request_id = self.request_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "deliveryId": delivery_id,
            "endpointId": endpoint_id,
            "eventId": event_id,
            "eventType": event_type,
            "status": status,
            "attemptCount": attempt_count,
            "nextAttemptAt": next_attempt_at,
            "attempts": attempts,
            "created_at": created_at,
            "updated_at": updated_at,
        })
        if request_id is not UNSET:
            field_dict["requestId"] = request_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.delivery_attempt import DeliveryAttempt # noqa: PLC0415
        d = dict(src_dict)
        delivery_id = d.pop("deliveryId")

        endpoint_id = d.pop("endpointId")

        event_id = d.pop("eventId")

        event_type = d.pop("eventType")

        status = DeliveryStatus(d.pop("status"))




        attempt_count = d.pop("attemptCount")

        def _parse_next_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = datetime.datetime.fromisoformat(data)



                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("nextAttemptAt"))


        attempts = []
        _attempts = d.pop("attempts")
        for attempts_item_data in (_attempts):
            attempts_item = DeliveryAttempt.from_dict(attempts_item_data)



            attempts.append(attempts_item)


        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))




        def _parse_request_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        request_id = _parse_request_id(d.pop("requestId", UNSET))


        delivery = cls(
            delivery_id=delivery_id,
            endpoint_id=endpoint_id,
            event_id=event_id,
            event_type=event_type,
            status=status,
            attempt_count=attempt_count,
            next_attempt_at=next_attempt_at,
            attempts=attempts,
            created_at=created_at,
            updated_at=updated_at,
            request_id=request_id,
        )


        delivery.additional_properties = d
        return delivery

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
