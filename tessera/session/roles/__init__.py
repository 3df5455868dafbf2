"""The tenant's roles as administrators see them (``listing``)."""
