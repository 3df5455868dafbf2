from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.registry_create_action import RegistryCreateAction
  from ..models.registry_update_action import RegistryUpdateAction
  from ..models.robot_fleet_trigger import RobotFleetTrigger
  from ..models.session_create_action import SessionCreateAction
  from ..models.session_delete_action import SessionDeleteAction
  from ..models.session_update_action import SessionUpdateAction





T = TypeVar("T", bound="CreateAutomationRequest")



@_attrs_define
class CreateAutomationRequest:
    """ 
        Example:
            {'name': 'Robot fleet receipts become stock-ins', 'trigger': {'source': 'robot-fleet', 'eventType':
                'inventory.received'}, 'actions': [{'kind': 'sessionCommand', 'command': 'stock-ins:create', 'payload': {'sku':
                '$.data.sku', 'quantity': '$.data.quantity', 'warehouse': '$.data.warehouse', 'receivedAt': '$.occurredAt',
                'source': 'robot-fleet'}}]}

        Attributes:
            name (str): Display name with at least one non-space character; leading and trailing spaces are trimmed.
                Example: Robot fleet receipts become stock-ins.
            trigger (RobotFleetTrigger): Events of `robot-fleet`.
            actions (list[RegistryCreateAction | RegistryUpdateAction | SessionCreateAction | SessionDeleteAction |
                SessionUpdateAction]): The actions, run in order in one transaction per run (1 to 10).
            enabled (bool | Unset): `false` creates the automation disabled (it starts no runs until enabled). Default:
                True.
     """

    name: str
    trigger: RobotFleetTrigger
    actions: list[RegistryCreateAction | RegistryUpdateAction | SessionCreateAction | SessionDeleteAction | SessionUpdateAction]
    enabled: bool | Unset = True





    def to_dict(self) -> dict[str, Any]:
        from ..models.registry_create_action import RegistryCreateAction # noqa: PLC0415
        from ..models.registry_update_action import RegistryUpdateAction # noqa: PLC0415
        from ..models.robot_fleet_trigger import RobotFleetTrigger # noqa: PLC0415
        from ..models.session_create_action import SessionCreateAction # noqa: PLC0415
        from ..models.session_delete_action import SessionDeleteAction # noqa: PLC0415
        from ..models.session_update_action import SessionUpdateAction # noqa: PLC0415
        name = self.name

        trigger = self.trigger.to_dict()

        actions = []
        for componentsschemas_automation_action_list_item_data in self.actions:
            componentsschemas_automation_action_list_item: dict[str, Any]
            if isinstance(componentsschemas_automation_action_list_item_data, RegistryCreateAction):
                componentsschemas_automation_action_list_item = componentsschemas_automation_action_list_item_data.to_dict()
            elif isinstance(componentsschemas_automation_action_list_item_data, RegistryUpdateAction):
                componentsschemas_automation_action_list_item = componentsschemas_automation_action_list_item_data.to_dict()
            elif isinstance(componentsschemas_automation_action_list_item_data, SessionCreateAction):
                componentsschemas_automation_action_list_item = componentsschemas_automation_action_list_item_data.to_dict()
            elif isinstance(componentsschemas_automation_action_list_item_data, SessionUpdateAction):
                componentsschemas_automation_action_list_item = componentsschemas_automation_action_list_item_data.to_dict()
            else:
                componentsschemas_automation_action_list_item = componentsschemas_automation_action_list_item_data.to_dict()

            actions.append(componentsschemas_automation_action_list_item)



        enabled = self.enabled


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
            "trigger": trigger,
            "actions": actions,
        })
        if enabled is not UNSET:
            field_dict["enabled"] = enabled

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.registry_create_action import RegistryCreateAction # noqa: PLC0415
        from ..models.registry_update_action import RegistryUpdateAction # noqa: PLC0415
        from ..models.robot_fleet_trigger import RobotFleetTrigger # noqa: PLC0415
        from ..models.session_create_action import SessionCreateAction # noqa: PLC0415
        from ..models.session_delete_action import SessionDeleteAction # noqa: PLC0415
        from ..models.session_update_action import SessionUpdateAction # noqa: PLC0415
        d = dict(src_dict)
        name = d.pop("name")

        trigger = RobotFleetTrigger.from_dict(d.pop("trigger"))




        actions = []
        _actions = d.pop("actions")
        for componentsschemas_automation_action_list_item_data in (_actions):
            def _parse_componentsschemas_automation_action_list_item(data: object) -> RegistryCreateAction | RegistryUpdateAction | SessionCreateAction | SessionDeleteAction | SessionUpdateAction:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_automation_action_type_0 = RegistryCreateAction.from_dict(data)



                    return componentsschemas_automation_action_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_automation_action_type_1 = RegistryUpdateAction.from_dict(data)



                    return componentsschemas_automation_action_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_automation_action_type_2 = SessionCreateAction.from_dict(data)



                    return componentsschemas_automation_action_type_2
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_automation_action_type_3 = SessionUpdateAction.from_dict(data)



                    return componentsschemas_automation_action_type_3
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_automation_action_type_4 = SessionDeleteAction.from_dict(data)



                return componentsschemas_automation_action_type_4

            componentsschemas_automation_action_list_item = _parse_componentsschemas_automation_action_list_item(componentsschemas_automation_action_list_item_data)

            actions.append(componentsschemas_automation_action_list_item)


        enabled = d.pop("enabled", UNSET)

        create_automation_request = cls(
            name=name,
            trigger=trigger,
            actions=actions,
            enabled=enabled,
        )

        return create_automation_request

