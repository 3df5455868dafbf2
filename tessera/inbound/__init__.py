"""Inbound events: what external systems post to a published event source."""
