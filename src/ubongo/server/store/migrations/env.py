"""Alembic environment: the server passes its open connection in ``config.attributes``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from ubongo.server.store.tables import Base

target_metadata = Base.metadata
config = context.config


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()
        return
    # `alembic` on the command line: the URL comes from sqlalchemy.url
    engine = create_engine(config.get_main_option("sqlalchemy.url") or "")
    with engine.begin() as conn:
        context.configure(connection=conn, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()


run()
