from enum import StrEnum

class OAuthErrorError(StrEnum):
    INVALID_CLIENT = "invalid_client"
    INVALID_REQUEST = "invalid_request"
    INVALID_SCOPE = "invalid_scope"
    RATE_LIMIT_EXCEEDED = "rate_limit_exceeded"
    SERVER_ERROR = "server_error"
    TLS_REQUIRED = "tls_required"
    UNSUPPORTED_GRANT_TYPE = "unsupported_grant_type"

    def __str__(self) -> str:
        return str(self.value)
