from enum import StrEnum

class IntrospectionRequestClientAssertionType(StrEnum):
    URNIETFPARAMSOAUTHCLIENT_ASSERTION_TYPEJWT_BEARER = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

    def __str__(self) -> str:
        return str(self.value)
