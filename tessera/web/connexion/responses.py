"""JSON responses as Connexion takes them back from an error handler."""

from __future__ import annotations

import json
from typing import Any

from connexion.lifecycle import ConnexionResponse


def json_response(status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> ConnexionResponse:
    return ConnexionResponse(
        status_code=status,
        mimetype="application/json",
        content_type="application/json",
        body=encode(body),
        headers=headers or {},
    )


def encode(body: dict[str, Any]) -> bytes:
    """Readable UTF-8 JSON; ASCII escapes when the body holds text UTF-8 cannot carry."""
    try:
        return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
    except UnicodeEncodeError:  # a lone surrogate echoed back from the request, e.g. in a field name
        return json.dumps(body, ensure_ascii=True, separators=(",", ":")).encode()
