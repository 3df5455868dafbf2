"""Persistence: SQLAlchemy 2 tables, engine set-up, Alembic migrations and tenant-scoped access.

Nothing here knows HTTP; services call it inside one transaction per business operation.
"""
