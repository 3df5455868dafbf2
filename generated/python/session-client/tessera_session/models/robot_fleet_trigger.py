from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.robot_fleet_trigger_event_type import RobotFleetTriggerEventType
from ..models.robot_fleet_trigger_source import RobotFleetTriggerSource






T = TypeVar("T", bound="RobotFleetTrigger")



@_attrs_define
class RobotFleetTrigger:
    """ Events of `robot-fleet`.

        Attributes:
            source (RobotFleetTriggerSource):
            event_type (RobotFleetTriggerEventType):
     """

    source: RobotFleetTriggerSource
    event_type: RobotFleetTriggerEventType





    def to_dict(self) -> dict[str, Any]:
        source = self.source.value

        event_type = self.event_type.value


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "source": source,
            "eventType": event_type,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        source = RobotFleetTriggerSource(d.pop("source"))




        event_type = RobotFleetTriggerEventType(d.pop("eventType"))




        robot_fleet_trigger = cls(
            source=source,
            event_type=event_type,
        )

        return robot_fleet_trigger

