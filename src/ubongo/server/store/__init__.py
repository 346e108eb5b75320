"""The database: stored games, records, accounts, ratings, daily results and open rooms.

SQLAlchemy 2 over SQLite (the default: a file) or PostgreSQL (by URL), its schema changed only
by the Alembic migrations in ``migrations/``, run at every start.

May import: :mod:`..protocol`, :mod:`..config`, :mod:`..ops`.
"""
