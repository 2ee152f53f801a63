"""Bring a database to the newest schema with the migrations shipped in this package."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine

from .engine import WRITE_OPTION

MIGRATIONS = Path(__file__).parent / "migrations"
_PG_LOCK_KEY = 0x5041524C4559  # "PARLEY": one migrator at a time across processes


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Run every pending migration in one transaction, one migrating process at a time.

    PostgreSQL: under an advisory lock. SQLite: the transaction starts with BEGIN
    IMMEDIATE, so a second process waits for the first and then finds nothing to do.
    """
    config = alembic_config()
    with engine.execution_options(**{WRITE_OPTION: True}).begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_PG_LOCK_KEY})")
        config.attributes["connection"] = conn
        command.upgrade(config, revision)


def current_revision(engine: Engine) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()
