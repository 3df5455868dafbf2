"""Tessera: one service, two HTTP surfaces (the Open Platform and the session REST API)."""

__version__ = "0.1.0"
