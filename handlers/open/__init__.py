"""Handlers of the Open Platform (``openapi/open-platform.yaml``)."""
