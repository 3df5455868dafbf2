from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.environment import Environment
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.caller_application import CallerApplication
  from ..models.caller_installation import CallerInstallation
  from ..models.caller_tenant import CallerTenant





T = TypeVar("T", bound="WhoAmI")



@_attrs_define
class WhoAmI:
    """ 
        Attributes:
            application (CallerApplication): The application the token was issued to.
            installation (CallerInstallation): The installation the token acts for.
            tenant (CallerTenant): The tenant of the installation.
            environment (Environment): The environment an installation belongs to.
            scopes (list[str]):
            client_id (str):
            expires_at (datetime.datetime):
     """

    application: CallerApplication
    installation: CallerInstallation
    tenant: CallerTenant
    environment: Environment
    scopes: list[str]
    client_id: str
    expires_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.caller_application import CallerApplication # noqa: PLC0415
        from ..models.caller_installation import CallerInstallation # noqa: PLC0415
        from ..models.caller_tenant import CallerTenant # noqa: PLC0415
        application = self.application.to_dict()

        installation = self.installation.to_dict()

        tenant = self.tenant.to_dict()

        environment = self.environment.value

        scopes = self.scopes



        client_id = self.client_id

        expires_at = self.expires_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "application": application,
            "installation": installation,
            "tenant": tenant,
            "environment": environment,
            "scopes": scopes,
            "clientId": client_id,
            "expiresAt": expires_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.caller_application import CallerApplication # noqa: PLC0415
        from ..models.caller_installation import CallerInstallation # noqa: PLC0415
        from ..models.caller_tenant import CallerTenant # noqa: PLC0415
        d = dict(src_dict)
        application = CallerApplication.from_dict(d.pop("application"))




        installation = CallerInstallation.from_dict(d.pop("installation"))




        tenant = CallerTenant.from_dict(d.pop("tenant"))




        environment = Environment(d.pop("environment"))




        scopes = cast(list[str], d.pop("scopes"))


        client_id = d.pop("clientId")

        expires_at = datetime.datetime.fromisoformat(d.pop("expiresAt"))




        who_am_i = cls(
            application=application,
            installation=installation,
            tenant=tenant,
            environment=environment,
            scopes=scopes,
            client_id=client_id,
            expires_at=expires_at,
        )


        who_am_i.additional_properties = d
        return who_am_i

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
