from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.automation_trigger import AutomationTrigger
  from ..models.command_action import CommandAction
  from ..models.session_command_action import SessionCommandAction





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
            trigger (AutomationTrigger): The inbound events that start a run: `source` a published event source (`robot-
                fleet`)
                and `eventType` one of its types (`inventory.received`); else `VALIDATION_ERROR` on
                `trigger.source` or `trigger.eventType`.
                 Example: {'source': 'robot-fleet', 'eventType': 'inventory.received'}.
            actions (list[CommandAction | SessionCommandAction]): The actions, run in order in one transaction per run (1 to
                10).
            enabled (bool | Unset): `false` creates the automation disabled (it starts no runs until enabled). Default:
                True.
     """

    name: str
    trigger: AutomationTrigger
    actions: list[CommandAction | SessionCommandAction]
    enabled: bool | Unset = True





    def to_dict(self) -> dict[str, Any]:
        from ..models.automation_trigger import AutomationTrigger # noqa: PLC0415
        from ..models.command_action import CommandAction # noqa: PLC0415
        from ..models.session_command_action import SessionCommandAction # noqa: PLC0415
        name = self.name

        trigger = self.trigger.to_dict()

        actions = []
        for componentsschemas_automation_action_list_item_data in self.actions:
            componentsschemas_automation_action_list_item: dict[str, Any]
            if isinstance(componentsschemas_automation_action_list_item_data, CommandAction):
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
        from ..models.automation_trigger import AutomationTrigger # noqa: PLC0415
        from ..models.command_action import CommandAction # noqa: PLC0415
        from ..models.session_command_action import SessionCommandAction # noqa: PLC0415
        d = dict(src_dict)
        name = d.pop("name")

        trigger = AutomationTrigger.from_dict(d.pop("trigger"))




        actions = []
        _actions = d.pop("actions")
        for componentsschemas_automation_action_list_item_data in (_actions):
            def _parse_componentsschemas_automation_action_list_item(data: object) -> CommandAction | SessionCommandAction:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_automation_action_type_0 = CommandAction.from_dict(data)



                    return componentsschemas_automation_action_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_automation_action_type_1 = SessionCommandAction.from_dict(data)



                return componentsschemas_automation_action_type_1

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

