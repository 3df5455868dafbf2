from enum import StrEnum

class AuditTextField(StrEnum):
    ACTION = "action"
    ACTOR = "actor"
    REQUESTID = "requestId"
    TARGETID = "targetId"
    TARGETTYPE = "targetType"

    def __str__(self) -> str:
        return str(self.value)
