from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.automation_run_status import AutomationRunStatus
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.automation_run_result import AutomationRunResult





T = TypeVar("T", bound="AutomationRun")



@_attrs_define
class AutomationRun:
    """ The execution of an automation for one inbound event.

        Example:
            {'runId': 'run_3f6j9m2q5t8w1z4c7g0k3n6r9v', 'automationId': 'aut_7m1q5v9z3c7g1k5p9t3x7b1f5j', 'eventId':
                'evt_9b2e5h8k1n4r7u0x3a6d9g2j5m', 'status': 'succeeded', 'attempts': 1, 'error': None, 'result': [{'command':
                'stock-ins:create', 'pid': 'rec_1d5h9m3q7u1y5c9g3k7p1t5x9b'}], 'nextAttemptAt': None, 'created_at':
                '2026-11-22T08:00:00.000Z', 'updated_at': '2026-11-22T08:00:01.000Z'}

        Attributes:
            run_id (str):
            automation_id (str):
            event_id (str): The id of the inbound event that started the run.
            status (AutomationRunStatus): `pending` (due to execute), `retrying` (failed, executed again at
                `nextAttemptAt`),
                `succeeded` or `parked` (every retry failed; an administrator may retry it).
                 Example: succeeded.
            attempts (int): Executions so far (reset to 0 by a retry).
            error (None | str): Why the last execution failed; null when it did not.
            result (list[AutomationRunResult] | None): One entry per action of a succeeded run; null before.
            next_attempt_at (datetime.datetime | None): When the run executes next; null when succeeded or parked.
            created_at (datetime.datetime):
            updated_at (datetime.datetime):
     """

    run_id: str
    automation_id: str
    event_id: str
    status: AutomationRunStatus
    attempts: int
    error: None | str
    result: list[AutomationRunResult] | None
    next_attempt_at: datetime.datetime | None
    created_at: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.automation_run_result import AutomationRunResult # noqa: PLC0415
        run_id = self.run_id

        automation_id = self.automation_id

        event_id = self.event_id

        status = self.status.value

        attempts = self.attempts

        error: None | str
        error = self.error

        result: list[dict[str, Any]] | None
        if isinstance(self.result, list):
            result = []
            for result_type_0_item_data in self.result:
                result_type_0_item = result_type_0_item_data.to_dict()
                result.append(result_type_0_item)


        else:
            result = self.result

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "runId": run_id,
            "automationId": automation_id,
            "eventId": event_id,
            "status": status,
            "attempts": attempts,
            "error": error,
            "result": result,
            "nextAttemptAt": next_attempt_at,
            "created_at": created_at,
            "updated_at": updated_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.automation_run_result import AutomationRunResult # noqa: PLC0415
        d = dict(src_dict)
        run_id = d.pop("runId")

        automation_id = d.pop("automationId")

        event_id = d.pop("eventId")

        status = AutomationRunStatus(d.pop("status"))




        attempts = d.pop("attempts")

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))


        def _parse_result(data: object) -> list[AutomationRunResult] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                result_type_0 = []
                _result_type_0 = data
                for result_type_0_item_data in (_result_type_0):
                    result_type_0_item = AutomationRunResult.from_dict(result_type_0_item_data)



                    result_type_0.append(result_type_0_item)

                return result_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[AutomationRunResult] | None, data)

        result = _parse_result(d.pop("result"))


        def _parse_next_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = datetime.datetime.fromisoformat(data)



                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("nextAttemptAt"))


        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))




        automation_run = cls(
            run_id=run_id,
            automation_id=automation_id,
            event_id=event_id,
            status=status,
            attempts=attempts,
            error=error,
            result=result,
            next_attempt_at=next_attempt_at,
            created_at=created_at,
            updated_at=updated_at,
        )


        automation_run.additional_properties = d
        return automation_run

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
