from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.asset_status_option import AssetStatusOption
from typing import cast






T = TypeVar("T", bound="AssetStatusDatasourceItem")



@_attrs_define
class AssetStatusDatasourceItem:
    """ An option of `asset-status`.

        Attributes:
            id (AssetStatusOption): An option of `asset-status`.
            value (AssetStatusOption): An option of `asset-status`.
            label (None | str):
     """

    id: AssetStatusOption
    value: AssetStatusOption
    label: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id.value

        value = self.value.value

        label: None | str
        label = self.label


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "value": value,
            "label": label,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = AssetStatusOption(d.pop("id"))




        value = AssetStatusOption(d.pop("value"))




        def _parse_label(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        label = _parse_label(d.pop("label"))


        asset_status_datasource_item = cls(
            id=id,
            value=value,
            label=label,
        )


        asset_status_datasource_item.additional_properties = d
        return asset_status_datasource_item

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
