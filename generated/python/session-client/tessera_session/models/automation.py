from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.assets_assign_command_action import AssetsAssignCommandAction
  from ..models.assets_create_session_action import AssetsCreateSessionAction
  from ..models.assets_delete_session_action import AssetsDeleteSessionAction
  from ..models.assets_update_session_action import AssetsUpdateSessionAction
  from ..models.inventory_stock_ins_create_command_action import InventoryStockInsCreateCommandAction
  from ..models.robot_fleet_trigger import RobotFleetTrigger
  from ..models.stock_ins_create_session_action import StockInsCreateSessionAction
  from ..models.stock_ins_delete_session_action import StockInsDeleteSessionAction
  from ..models.stock_ins_update_session_action import StockInsUpdateSessionAction





T = TypeVar("T", bound="Automation")



@_attrs_define
class Automation:
    """ An automation of the tenant.

        Example:
            {'automationId': 'aut_7m1q5v9z3c7g1k5p9t3x7b1f5j', 'name': 'Robot fleet receipts become stock-ins', 'trigger':
                {'source': 'robot-fleet', 'eventType': 'inventory.received'}, 'actions': [{'kind': 'sessionCommand', 'command':
                'stock-ins:create', 'payload': {'sku': '$.data.sku', 'quantity': '$.data.quantity', 'warehouse':
                '$.data.warehouse', 'receivedAt': '$.occurredAt', 'source': 'robot-fleet'}}], 'enabled': True, 'created_at':
                '2026-11-22T08:00:00.000Z', 'updated_at': '2026-11-22T08:00:00.000Z'}

        Attributes:
            automation_id (str):
            name (str):
            trigger (RobotFleetTrigger): Events of `robot-fleet`.
            actions (list[AssetsAssignCommandAction | AssetsCreateSessionAction | AssetsDeleteSessionAction |
                AssetsUpdateSessionAction | InventoryStockInsCreateCommandAction | StockInsCreateSessionAction |
                StockInsDeleteSessionAction | StockInsUpdateSessionAction]): The actions as given.
            enabled (bool):
            created_at (datetime.datetime):
            updated_at (datetime.datetime):
     """

    automation_id: str
    name: str
    trigger: RobotFleetTrigger
    actions: list[AssetsAssignCommandAction | AssetsCreateSessionAction | AssetsDeleteSessionAction | AssetsUpdateSessionAction | InventoryStockInsCreateCommandAction | StockInsCreateSessionAction | StockInsDeleteSessionAction | StockInsUpdateSessionAction]
    enabled: bool
    created_at: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.assets_assign_command_action import AssetsAssignCommandAction # noqa: PLC0415
        from ..models.assets_create_session_action import AssetsCreateSessionAction # noqa: PLC0415
        from ..models.assets_delete_session_action import AssetsDeleteSessionAction # noqa: PLC0415
        from ..models.assets_update_session_action import AssetsUpdateSessionAction # noqa: PLC0415
        from ..models.inventory_stock_ins_create_command_action import InventoryStockInsCreateCommandAction # noqa: PLC0415
        from ..models.robot_fleet_trigger import RobotFleetTrigger # noqa: PLC0415
        from ..models.stock_ins_create_session_action import StockInsCreateSessionAction # noqa: PLC0415
        from ..models.stock_ins_delete_session_action import StockInsDeleteSessionAction # noqa: PLC0415
        from ..models.stock_ins_update_session_action import StockInsUpdateSessionAction # noqa: PLC0415
        automation_id = self.automation_id

        name = self.name

        trigger = self.trigger.to_dict()

        actions = []
        for actions_item_data in self.actions:
            actions_item: dict[str, Any]
            if isinstance(actions_item_data, AssetsAssignCommandAction):
                actions_item = actions_item_data.to_dict()
            elif isinstance(actions_item_data, InventoryStockInsCreateCommandAction):
                actions_item = actions_item_data.to_dict()
            elif isinstance(actions_item_data, AssetsCreateSessionAction):
                actions_item = actions_item_data.to_dict()
            elif isinstance(actions_item_data, AssetsUpdateSessionAction):
                actions_item = actions_item_data.to_dict()
            elif isinstance(actions_item_data, AssetsDeleteSessionAction):
                actions_item = actions_item_data.to_dict()
            elif isinstance(actions_item_data, StockInsCreateSessionAction):
                actions_item = actions_item_data.to_dict()
            elif isinstance(actions_item_data, StockInsUpdateSessionAction):
                actions_item = actions_item_data.to_dict()
            else:
                actions_item = actions_item_data.to_dict()

            actions.append(actions_item)



        enabled = self.enabled

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "automationId": automation_id,
            "name": name,
            "trigger": trigger,
            "actions": actions,
            "enabled": enabled,
            "created_at": created_at,
            "updated_at": updated_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.assets_assign_command_action import AssetsAssignCommandAction # noqa: PLC0415
        from ..models.assets_create_session_action import AssetsCreateSessionAction # noqa: PLC0415
        from ..models.assets_delete_session_action import AssetsDeleteSessionAction # noqa: PLC0415
        from ..models.assets_update_session_action import AssetsUpdateSessionAction # noqa: PLC0415
        from ..models.inventory_stock_ins_create_command_action import InventoryStockInsCreateCommandAction # noqa: PLC0415
        from ..models.robot_fleet_trigger import RobotFleetTrigger # noqa: PLC0415
        from ..models.stock_ins_create_session_action import StockInsCreateSessionAction # noqa: PLC0415
        from ..models.stock_ins_delete_session_action import StockInsDeleteSessionAction # noqa: PLC0415
        from ..models.stock_ins_update_session_action import StockInsUpdateSessionAction # noqa: PLC0415
        d = dict(src_dict)
        automation_id = d.pop("automationId")

        name = d.pop("name")

        trigger = RobotFleetTrigger.from_dict(d.pop("trigger"))




        actions = []
        _actions = d.pop("actions")
        for actions_item_data in (_actions):
            def _parse_actions_item(data: object) -> AssetsAssignCommandAction | AssetsCreateSessionAction | AssetsDeleteSessionAction | AssetsUpdateSessionAction | InventoryStockInsCreateCommandAction | StockInsCreateSessionAction | StockInsDeleteSessionAction | StockInsUpdateSessionAction:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_automation_action_type_0 = AssetsAssignCommandAction.from_dict(data)



                    return componentsschemas_automation_action_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_automation_action_type_1 = InventoryStockInsCreateCommandAction.from_dict(data)



                    return componentsschemas_automation_action_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_automation_action_type_2 = AssetsCreateSessionAction.from_dict(data)



                    return componentsschemas_automation_action_type_2
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_automation_action_type_3 = AssetsUpdateSessionAction.from_dict(data)



                    return componentsschemas_automation_action_type_3
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_automation_action_type_4 = AssetsDeleteSessionAction.from_dict(data)



                    return componentsschemas_automation_action_type_4
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_automation_action_type_5 = StockInsCreateSessionAction.from_dict(data)



                    return componentsschemas_automation_action_type_5
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_automation_action_type_6 = StockInsUpdateSessionAction.from_dict(data)



                    return componentsschemas_automation_action_type_6
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_automation_action_type_7 = StockInsDeleteSessionAction.from_dict(data)



                return componentsschemas_automation_action_type_7

            actions_item = _parse_actions_item(actions_item_data)

            actions.append(actions_item)


        enabled = d.pop("enabled")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))




        automation = cls(
            automation_id=automation_id,
            name=name,
            trigger=trigger,
            actions=actions,
            enabled=enabled,
            created_at=created_at,
            updated_at=updated_at,
        )


        automation.additional_properties = d
        return automation

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
