"""How statements reach a database: compiled statements, the async PostgreSQL and SQLite
drivers, psycopg's and SQLAlchemy's fenced internals, and the per-statement spans."""
