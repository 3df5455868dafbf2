from enum import StrEnum

class AuditField(StrEnum):
    ACTION = "action"
    ACTOR = "actor"
    CREATED_AT = "created_at"
    REQUESTID = "requestId"
    TARGETID = "targetId"
    TARGETTYPE = "targetType"

    def __str__(self) -> str:
        return str(self.value)
