from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.asset import Asset





T = TypeVar("T", bound="AssetPage")



@_attrs_define
class AssetPage:
    """ One page of `assets` records.

        Example:
            {'items': [{'pid': 'rec_0c4m8n2p6r0t4v8x2z6b0d4f8h', 'name': 'ThinkPad X1 Carbon', 'serialNo': 'DEMO-SN-000117',
                'status': 'in_stock', 'assignee': None, 'value': 1899.5, 'purchasedAt': '2025-03-18', 'createdAt':
                '2026-11-20T09:15:00.000Z', 'updatedAt': '2026-11-20T09:15:00.000Z'}], 'nextCursor':
                'gAAAAABnQ2x1c3Rlci1leGFtcGxlLWN1cnNvci1vbmx5LW5vdC12YWxpZA=='}

        Attributes:
            items (list[Asset]): The records of this page, oldest first.
            next_cursor (None | str): Opaque and signed; pass it back unchanged as `cursor`. Null on the last page.
     """

    items: list[Asset]
    next_cursor: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.asset import Asset # noqa: PLC0415
        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)



        next_cursor: None | str
        next_cursor = self.next_cursor


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "items": items,
            "nextCursor": next_cursor,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.asset import Asset # noqa: PLC0415
        d = dict(src_dict)
        items = []
        _items = d.pop("items")
        for items_item_data in (_items):
            items_item = Asset.from_dict(items_item_data)



            items.append(items_item)


        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("nextCursor"))


        asset_page = cls(
            items=items,
            next_cursor=next_cursor,
        )


        asset_page.additional_properties = d
        return asset_page

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
