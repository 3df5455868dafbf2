from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.o_auth_error_error import OAuthErrorError
from typing import cast

if TYPE_CHECKING:
  from ..models.error_details import ErrorDetails





T = TypeVar("T", bound="OAuthError")



@_attrs_define
class OAuthError:
    """ The error envelope plus RFC 6749's `error` and `error_description`.

        Attributes:
            code (str):  Example: invalid_request.
            message (str): Human-readable; never branch on it.
            request_id (str): Correlates with `X-Request-Id`.
            details (ErrorDetails): Structured detail of the error.
            error (OAuthErrorError):
            error_description (str):
     """

    code: str
    message: str
    request_id: str
    details: ErrorDetails
    error: OAuthErrorError
    error_description: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.error_details import ErrorDetails # noqa: PLC0415
        code = self.code

        message = self.message

        request_id = self.request_id

        details = self.details.to_dict()

        error = self.error.value

        error_description = self.error_description


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "code": code,
            "message": message,
            "requestId": request_id,
            "details": details,
            "error": error,
            "error_description": error_description,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.error_details import ErrorDetails # noqa: PLC0415
        d = dict(src_dict)
        code = d.pop("code")

        message = d.pop("message")

        request_id = d.pop("requestId")

        details = ErrorDetails.from_dict(d.pop("details"))




        error = OAuthErrorError(d.pop("error"))




        error_description = d.pop("error_description")

        o_auth_error = cls(
            code=code,
            message=message,
            request_id=request_id,
            details=details,
            error=error,
            error_description=error_description,
        )


        o_auth_error.additional_properties = d
        return o_auth_error

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
