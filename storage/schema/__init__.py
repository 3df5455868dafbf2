"""The schema: tables and column types, Alembic migrations, and what a migrate reconciles
with models.yaml (record indexes, field moves, role templates)."""
