from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.validation_error_data_field_errors import ValidationErrorDataFieldErrors





T = TypeVar("T", bound="ValidationErrorData")



@_attrs_define
class ValidationErrorData:
    """ 
        Attributes:
            field_errors (ValidationErrorDataFieldErrors): Field code (or parameter name) to translated message, one entry
                per bad field.
     """

    field_errors: ValidationErrorDataFieldErrors
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.validation_error_data_field_errors import ValidationErrorDataFieldErrors # noqa: PLC0415
        field_errors = self.field_errors.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "fieldErrors": field_errors,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.validation_error_data_field_errors import ValidationErrorDataFieldErrors # noqa: PLC0415
        d = dict(src_dict)
        field_errors = ValidationErrorDataFieldErrors.from_dict(d.pop("fieldErrors"))




        validation_error_data = cls(
            field_errors=field_errors,
        )


        validation_error_data.additional_properties = d
        return validation_error_data

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
