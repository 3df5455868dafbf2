from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.session import Session





T = TypeVar("T", bound="SessionEnvelope")



@_attrs_define
class SessionEnvelope:
    """ 
        Example:
            {'code': '0', 'message': 'OK', 'data': {'userPid': 'usr_j37xq43c1hj6a5z1c90rp4t72y', 'email':
                'viewer@demo.example', 'username': 'Demo Viewer', 'tenantId': 'demo', 'tenantName': 'Demo Corporation',
                'tenantRole': 'viewer', 'permissions': ['assets:view', 'stock-ins:view'], 'platformRoles': [], 'tenants':
                [{'tenantId': 'demo', 'name': 'Demo Corporation', 'role': 'viewer', 'status': 'member'}], 'expiresAt':
                '2026-11-22T16:00:00.000Z'}}

        Attributes:
            code (str): `"0"` on success, otherwise an error code. Example: 0.
            message (str): Human-readable, translated; never branch on it. Example: OK.
            data (Session): The signed-in user and the tenant the call acts in. Example: {'userPid':
                'usr_4k9x2m7q1c8v5b3n6z0w8y2r4t', 'email': 'admin@demo.example', 'username': 'Demo Admin', 'tenantId': 'demo',
                'tenantName': 'Demo Corporation', 'tenantRole': 'admin', 'permissions': ['*'], 'platformRoles':
                ['sys.connector.update'], 'tenants': [{'tenantId': 'acme', 'name': 'Acme Industries', 'role': 'viewer',
                'status': 'member'}, {'tenantId': 'demo', 'name': 'Demo Corporation', 'role': 'admin', 'status': 'member'}],
                'expiresAt': '2026-11-22T16:00:00.000Z'}.
     """

    code: str
    message: str
    data: Session
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.session import Session # noqa: PLC0415
        code = self.code

        message = self.message

        data = self.data.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "code": code,
            "message": message,
            "data": data,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.session import Session # noqa: PLC0415
        d = dict(src_dict)
        code = d.pop("code")

        message = d.pop("message")

        data = Session.from_dict(d.pop("data"))




        session_envelope = cls(
            code=code,
            message=message,
            data=data,
        )


        session_envelope.additional_properties = d
        return session_envelope

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
