"""The events API: an installation's own events, in the one body its webhooks carry."""
