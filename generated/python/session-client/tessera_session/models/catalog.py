from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.environment import Environment
from typing import cast

if TYPE_CHECKING:
  from ..models.catalog_event_source import CatalogEventSource
  from ..models.catalog_scope import CatalogScope
  from ..models.catalog_webhook_event import CatalogWebhookEvent





T = TypeVar("T", bound="Catalog")



@_attrs_define
class Catalog:
    """ What the Open Platform publishes, each list sorted.

        Example:
            {'scopes': [{'scope': 'assets.read', 'description': 'read assets'}], 'webhookEventTypes': [{'eventType':
                'assets.assignment.changed', 'description': "An asset's assignee changed.", 'scope': 'assets.read'}],
                'eventSources': [{'source': 'robot-fleet', 'description': 'Events from warehouse robot fleets.', 'scope':
                'events.robot-fleet.publish', 'eventTypes': ['inventory.received']}], 'environments': ['development', 'staging',
                'production']}

        Attributes:
            scopes (list[CatalogScope]):
            webhook_event_types (list[CatalogWebhookEvent]):
            event_sources (list[CatalogEventSource]):
            environments (list[Environment]):
     """

    scopes: list[CatalogScope]
    webhook_event_types: list[CatalogWebhookEvent]
    event_sources: list[CatalogEventSource]
    environments: list[Environment]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.catalog_event_source import CatalogEventSource # noqa: PLC0415
        from ..models.catalog_scope import CatalogScope # noqa: PLC0415
        from ..models.catalog_webhook_event import CatalogWebhookEvent # noqa: PLC0415
        scopes = []
        for scopes_item_data in self.scopes:
            scopes_item = scopes_item_data.to_dict()
            scopes.append(scopes_item)



        webhook_event_types = []
        for webhook_event_types_item_data in self.webhook_event_types:
            webhook_event_types_item = webhook_event_types_item_data.to_dict()
            webhook_event_types.append(webhook_event_types_item)



        event_sources = []
        for event_sources_item_data in self.event_sources:
            event_sources_item = event_sources_item_data.to_dict()
            event_sources.append(event_sources_item)



        environments = []
        for environments_item_data in self.environments:
            environments_item = environments_item_data.value
            environments.append(environments_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "scopes": scopes,
            "webhookEventTypes": webhook_event_types,
            "eventSources": event_sources,
            "environments": environments,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.catalog_event_source import CatalogEventSource # noqa: PLC0415
        from ..models.catalog_scope import CatalogScope # noqa: PLC0415
        from ..models.catalog_webhook_event import CatalogWebhookEvent # noqa: PLC0415
        d = dict(src_dict)
        scopes = []
        _scopes = d.pop("scopes")
        for scopes_item_data in (_scopes):
            scopes_item = CatalogScope.from_dict(scopes_item_data)



            scopes.append(scopes_item)


        webhook_event_types = []
        _webhook_event_types = d.pop("webhookEventTypes")
        for webhook_event_types_item_data in (_webhook_event_types):
            webhook_event_types_item = CatalogWebhookEvent.from_dict(webhook_event_types_item_data)



            webhook_event_types.append(webhook_event_types_item)


        event_sources = []
        _event_sources = d.pop("eventSources")
        for event_sources_item_data in (_event_sources):
            event_sources_item = CatalogEventSource.from_dict(event_sources_item_data)



            event_sources.append(event_sources_item)


        environments = []
        _environments = d.pop("environments")
        for environments_item_data in (_environments):
            environments_item = Environment(environments_item_data)



            environments.append(environments_item)


        catalog = cls(
            scopes=scopes,
            webhook_event_types=webhook_event_types,
            event_sources=event_sources,
            environments=environments,
        )


        catalog.additional_properties = d
        return catalog

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
