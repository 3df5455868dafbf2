"""Persistence: one module of SQL per feature at this level (the Open Platform's in ``openplatform/``),
the tables and their migrations in ``schema/``, and the drivers that run the SQL in ``drivers/``.

Nothing here knows HTTP; services call it inside one transaction per business operation.
"""
