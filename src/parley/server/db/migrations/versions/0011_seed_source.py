"""Where a game's seed came from: the server, or its host (mixed with a secret, or as given).

Games stored before have no value (NULL): their seeds were used as stored and still are, so
their records replay unchanged.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    columns = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("games")}
    if "seed_source" in columns:
        return  # a schema made from the current models, stamped at an older revision
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("seed_source", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("seed_source")
