"""Alembic environment: runs on the connection the server hands over."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from parley.server.db.models import Base

connection: Connection | None = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through parley.server.db.migrate.upgrade()")

context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=connection.dialect.name == "sqlite",  # SQLite alters tables by copying
)
with context.begin_transaction():
    context.run_migrations()
