from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

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





T = TypeVar("T", bound="UpdateAutomationRequest")



@_attrs_define
class UpdateAutomationRequest:
    """ Give `name`, `trigger`, `actions` (replaces them all), `enabled`, or several.

        Example:
            {'enabled': False}

        Attributes:
            name (str | Unset): Display name with at least one non-space character; leading and trailing spaces are trimmed.
                Example: Robot fleet receipts become stock-ins.
            trigger (RobotFleetTrigger | Unset): Events of `robot-fleet`.
            actions (list[AssetsAssignCommandAction | AssetsCreateSessionAction | AssetsDeleteSessionAction |
                AssetsUpdateSessionAction | InventoryStockInsCreateCommandAction | StockInsCreateSessionAction |
                StockInsDeleteSessionAction | StockInsUpdateSessionAction] | Unset): The actions, run in order in one
                transaction per run (1 to 10).
            enabled (bool | Unset): `false` stops the automation from starting new runs.
     """

    name: str | Unset = UNSET
    trigger: RobotFleetTrigger | Unset = UNSET
    actions: list[AssetsAssignCommandAction | AssetsCreateSessionAction | AssetsDeleteSessionAction | AssetsUpdateSessionAction | InventoryStockInsCreateCommandAction | StockInsCreateSessionAction | StockInsDeleteSessionAction | StockInsUpdateSessionAction] | Unset = UNSET
    enabled: bool | Unset = UNSET





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
        name = self.name

        trigger: dict[str, Any] | Unset = UNSET
        if not isinstance(self.trigger, Unset):
            trigger = self.trigger.to_dict()

        actions: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.actions, Unset):
            actions = []
            for componentsschemas_automation_action_list_item_data in self.actions:
                componentsschemas_automation_action_list_item: dict[str, Any]
                if isinstance(componentsschemas_automation_action_list_item_data, AssetsAssignCommandAction):
                    componentsschemas_automation_action_list_item = componentsschemas_automation_action_list_item_data.to_dict()
                elif isinstance(componentsschemas_automation_action_list_item_data, InventoryStockInsCreateCommandAction):
                    componentsschemas_automation_action_list_item = componentsschemas_automation_action_list_item_data.to_dict()
                elif isinstance(componentsschemas_automation_action_list_item_data, AssetsCreateSessionAction):
                    componentsschemas_automation_action_list_item = componentsschemas_automation_action_list_item_data.to_dict()
                elif isinstance(componentsschemas_automation_action_list_item_data, AssetsUpdateSessionAction):
                    componentsschemas_automation_action_list_item = componentsschemas_automation_action_list_item_data.to_dict()
                elif isinstance(componentsschemas_automation_action_list_item_data, AssetsDeleteSessionAction):
                    componentsschemas_automation_action_list_item = componentsschemas_automation_action_list_item_data.to_dict()
                elif isinstance(componentsschemas_automation_action_list_item_data, StockInsCreateSessionAction):
                    componentsschemas_automation_action_list_item = componentsschemas_automation_action_list_item_data.to_dict()
                elif isinstance(componentsschemas_automation_action_list_item_data, StockInsUpdateSessionAction):
                    componentsschemas_automation_action_list_item = componentsschemas_automation_action_list_item_data.to_dict()
                else:
                    componentsschemas_automation_action_list_item = componentsschemas_automation_action_list_item_data.to_dict()

                actions.append(componentsschemas_automation_action_list_item)



        enabled = self.enabled


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if name is not UNSET:
            field_dict["name"] = name
        if trigger is not UNSET:
            field_dict["trigger"] = trigger
        if actions is not UNSET:
            field_dict["actions"] = actions
        if enabled is not UNSET:
            field_dict["enabled"] = enabled

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
        name = d.pop("name", UNSET)

        _trigger = d.pop("trigger", UNSET)
        trigger: RobotFleetTrigger | Unset
        if isinstance(_trigger,  Unset):
            trigger = UNSET
        else:
            trigger = RobotFleetTrigger.from_dict(_trigger)




        _actions = d.pop("actions", UNSET)
        actions: list[AssetsAssignCommandAction | AssetsCreateSessionAction | AssetsDeleteSessionAction | AssetsUpdateSessionAction | InventoryStockInsCreateCommandAction | StockInsCreateSessionAction | StockInsDeleteSessionAction | StockInsUpdateSessionAction] | Unset = UNSET
        if _actions is not UNSET:
            actions = []
            for componentsschemas_automation_action_list_item_data in _actions:
                def _parse_componentsschemas_automation_action_list_item(data: object) -> AssetsAssignCommandAction | AssetsCreateSessionAction | AssetsDeleteSessionAction | AssetsUpdateSessionAction | InventoryStockInsCreateCommandAction | StockInsCreateSessionAction | StockInsDeleteSessionAction | StockInsUpdateSessionAction:
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

                componentsschemas_automation_action_list_item = _parse_componentsschemas_automation_action_list_item(componentsschemas_automation_action_list_item_data)

                actions.append(componentsschemas_automation_action_list_item)


        enabled = d.pop("enabled", UNSET)

        update_automation_request = cls(
            name=name,
            trigger=trigger,
            actions=actions,
            enabled=enabled,
        )

        return update_automation_request

