"""Handlers of the session REST API (``openapi/session-api.yaml``)."""
