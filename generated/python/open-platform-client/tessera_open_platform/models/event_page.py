from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.assets_assignment_changed_event import AssetsAssignmentChangedEvent
  from ..models.credential_expiry_approaching_event import CredentialExpiryApproachingEvent
  from ..models.credential_rotation_due_event import CredentialRotationDueEvent
  from ..models.inventory_stock_in_created_event import InventoryStockInCreatedEvent
  from ..models.webhook_endpoint_disabled_event import WebhookEndpointDisabledEvent





T = TypeVar("T", bound="EventPage")



@_attrs_define
class EventPage:
    """ One page of the installation's events, oldest first.

        Example:
            {'items': [{'id': 'evt_3f8k1m6p9r2t5v0x4z7b1d3f6h', 'type': 'assets.assignment.changed', 'schemaVersion': 1,
                'occurredAt': '2026-11-22T08:00:00.000Z', 'data': {'pid': 'rec_0c4m8n2p6r0t4v8x2z6b0d4f8h', 'assignee': 'Dana
                Whitfield', 'status': 'assigned', 'previousAssignee': None}}], 'nextCursor':
                'gAAAAABnQ2x1c3Rlci1leGFtcGxlLWN1cnNvci1vbmx5LW5vdC12YWxpZA==', 'hasMore': False}

        Attributes:
            items (list[AssetsAssignmentChangedEvent | CredentialExpiryApproachingEvent | CredentialRotationDueEvent |
                InventoryStockInCreatedEvent | WebhookEndpointDisabledEvent]):
            next_cursor (str): Where the next page starts; always given, so a consumer can ask again later.
            has_more (bool): Whether more events follow now; false means this is the end for the moment.
     """

    items: list[AssetsAssignmentChangedEvent | CredentialExpiryApproachingEvent | CredentialRotationDueEvent | InventoryStockInCreatedEvent | WebhookEndpointDisabledEvent]
    next_cursor: str
    has_more: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.assets_assignment_changed_event import AssetsAssignmentChangedEvent # noqa: PLC0415
        from ..models.credential_expiry_approaching_event import CredentialExpiryApproachingEvent # noqa: PLC0415
        from ..models.credential_rotation_due_event import CredentialRotationDueEvent # noqa: PLC0415
        from ..models.inventory_stock_in_created_event import InventoryStockInCreatedEvent # noqa: PLC0415
        from ..models.webhook_endpoint_disabled_event import WebhookEndpointDisabledEvent # noqa: PLC0415
        items = []
        for items_item_data in self.items:
            items_item: dict[str, Any]
            if isinstance(items_item_data, WebhookEndpointDisabledEvent):
                items_item = items_item_data.to_dict()
            elif isinstance(items_item_data, CredentialRotationDueEvent):
                items_item = items_item_data.to_dict()
            elif isinstance(items_item_data, CredentialExpiryApproachingEvent):
                items_item = items_item_data.to_dict()
            elif isinstance(items_item_data, AssetsAssignmentChangedEvent):
                items_item = items_item_data.to_dict()
            else:
                items_item = items_item_data.to_dict()

            items.append(items_item)



        next_cursor = self.next_cursor

        has_more = self.has_more


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "items": items,
            "nextCursor": next_cursor,
            "hasMore": has_more,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.assets_assignment_changed_event import AssetsAssignmentChangedEvent # noqa: PLC0415
        from ..models.credential_expiry_approaching_event import CredentialExpiryApproachingEvent # noqa: PLC0415
        from ..models.credential_rotation_due_event import CredentialRotationDueEvent # noqa: PLC0415
        from ..models.inventory_stock_in_created_event import InventoryStockInCreatedEvent # noqa: PLC0415
        from ..models.webhook_endpoint_disabled_event import WebhookEndpointDisabledEvent # noqa: PLC0415
        d = dict(src_dict)
        items = []
        _items = d.pop("items")
        for items_item_data in (_items):
            def _parse_items_item(data: object) -> AssetsAssignmentChangedEvent | CredentialExpiryApproachingEvent | CredentialRotationDueEvent | InventoryStockInCreatedEvent | WebhookEndpointDisabledEvent:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_0 = WebhookEndpointDisabledEvent.from_dict(data)



                    return componentsschemas_event_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_1 = CredentialRotationDueEvent.from_dict(data)



                    return componentsschemas_event_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_2 = CredentialExpiryApproachingEvent.from_dict(data)



                    return componentsschemas_event_type_2
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_3 = AssetsAssignmentChangedEvent.from_dict(data)



                    return componentsschemas_event_type_3
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_4 = InventoryStockInCreatedEvent.from_dict(data)



                return componentsschemas_event_type_4

            items_item = _parse_items_item(items_item_data)

            items.append(items_item)


        next_cursor = d.pop("nextCursor")

        has_more = d.pop("hasMore")

        event_page = cls(
            items=items,
            next_cursor=next_cursor,
            has_more=has_more,
        )


        event_page.additional_properties = d
        return event_page

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
