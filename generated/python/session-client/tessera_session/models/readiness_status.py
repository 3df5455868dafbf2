from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.readiness_status_database import ReadinessStatusDatabase
from ..models.readiness_status_database_write import ReadinessStatusDatabaseWrite
from ..models.readiness_status_redis import ReadinessStatusRedis
from ..models.readiness_status_status import ReadinessStatusStatus
from ..types import UNSET, Unset






T = TypeVar("T", bound="ReadinessStatus")



@_attrs_define
class ReadinessStatus:
    """ 
        Attributes:
            status (ReadinessStatusStatus):
            database (ReadinessStatusDatabase):
            database_write (ReadinessStatusDatabaseWrite):
            redis (ReadinessStatusRedis | Unset):
     """

    status: ReadinessStatusStatus
    database: ReadinessStatusDatabase
    database_write: ReadinessStatusDatabaseWrite
    redis: ReadinessStatusRedis | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        status = self.status.value

        database = self.database.value

        database_write = self.database_write.value

        redis: str | Unset = UNSET
        if not isinstance(self.redis, Unset):
            redis = self.redis.value



        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "status": status,
            "database": database,
            "databaseWrite": database_write,
        })
        if redis is not UNSET:
            field_dict["redis"] = redis

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        status = ReadinessStatusStatus(d.pop("status"))




        database = ReadinessStatusDatabase(d.pop("database"))




        database_write = ReadinessStatusDatabaseWrite(d.pop("databaseWrite"))




        _redis = d.pop("redis", UNSET)
        redis: ReadinessStatusRedis | Unset
        if isinstance(_redis,  Unset):
            redis = UNSET
        else:
            redis = ReadinessStatusRedis(_redis)




        readiness_status = cls(
            status=status,
            database=database,
            database_write=database_write,
            redis=redis,
        )


        readiness_status.additional_properties = d
        return readiness_status

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
