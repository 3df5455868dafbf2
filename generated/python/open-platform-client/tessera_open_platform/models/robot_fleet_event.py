from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.robot_fleet_event_schema_version import RobotFleetEventSchemaVersion
from ..models.robot_fleet_event_type import RobotFleetEventType
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.robot_fleet_inventory_received_v1 import RobotFleetInventoryReceivedV1





T = TypeVar("T", bound="RobotFleetEvent")



@_attrs_define
class RobotFleetEvent:
    """ An event posted by `robot-fleet`.

        Example:
            {'type': 'inventory.received', 'schemaVersion': 1, 'occurredAt': '2026-11-22T08:00:00.000Z', 'data': {'sku':
                'SKU-4417-0032', 'quantity': 3, 'warehouse': 'north'}}

        Attributes:
            type_ (RobotFleetEventType):
            schema_version (RobotFleetEventSchemaVersion):
            occurred_at (datetime.datetime): RFC 3339 (ISO 8601) timestamp in UTC: `Z`, `+00:00` or `-00:00`.
            data (RobotFleetInventoryReceivedV1): `data` of `inventory.received`, schemaVersion 1. Example: {'sku':
                'SKU-4417-0032', 'quantity': 3, 'warehouse': 'north'}.
     """

    type_: RobotFleetEventType
    schema_version: RobotFleetEventSchemaVersion
    occurred_at: datetime.datetime
    data: RobotFleetInventoryReceivedV1





    def to_dict(self) -> dict[str, Any]:
        from ..models.robot_fleet_inventory_received_v1 import RobotFleetInventoryReceivedV1 # noqa: PLC0415
        type_ = self.type_.value

        schema_version = self.schema_version.value

        occurred_at = self.occurred_at.isoformat()

        data = self.data.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "type": type_,
            "schemaVersion": schema_version,
            "occurredAt": occurred_at,
            "data": data,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.robot_fleet_inventory_received_v1 import RobotFleetInventoryReceivedV1 # noqa: PLC0415
        d = dict(src_dict)
        type_ = RobotFleetEventType(d.pop("type"))




        schema_version = RobotFleetEventSchemaVersion(d.pop("schemaVersion"))




        occurred_at = datetime.datetime.fromisoformat(d.pop("occurredAt"))




        data = RobotFleetInventoryReceivedV1.from_dict(d.pop("data"))




        robot_fleet_event = cls(
            type_=type_,
            schema_version=schema_version,
            occurred_at=occurred_at,
            data=data,
        )

        return robot_fleet_event

