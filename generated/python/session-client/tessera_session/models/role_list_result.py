from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.tenant_role import TenantRole





T = TypeVar("T", bound="RoleListResult")



@_attrs_define
class RoleListResult:
    """ 
        Attributes:
            records (list[TenantRole]):
            total (int):
            page_num (int):
            page_size (int):
     """

    records: list[TenantRole]
    total: int
    page_num: int
    page_size: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.tenant_role import TenantRole # noqa: PLC0415
        records = []
        for records_item_data in self.records:
            records_item = records_item_data.to_dict()
            records.append(records_item)



        total = self.total

        page_num = self.page_num

        page_size = self.page_size


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "records": records,
            "total": total,
            "pageNum": page_num,
            "pageSize": page_size,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.tenant_role import TenantRole # noqa: PLC0415
        d = dict(src_dict)
        records = []
        _records = d.pop("records")
        for records_item_data in (_records):
            records_item = TenantRole.from_dict(records_item_data)



            records.append(records_item)


        total = d.pop("total")

        page_num = d.pop("pageNum")

        page_size = d.pop("pageSize")

        role_list_result = cls(
            records=records,
            total=total,
            page_num=page_num,
            page_size=page_size,
        )


        role_list_result.additional_properties = d
        return role_list_result

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
