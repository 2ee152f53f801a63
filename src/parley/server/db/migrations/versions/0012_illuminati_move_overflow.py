"""Illuminati games stored before `move_overflow` existed keep moving groups as they did.

The engine used to move a group at once, puppets that did not fit waiting for room; the
option's default (`confirm`, the seed's Move a Group) shows what a move would lose and
asks first. A game whose stored options lack the option was played the old way: it gets
`wait`, so its record replays as it was played.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

from parley.server.db.legacy_options import drop_legacy, keep_legacy

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# What the engine did before the option existed.
LEGACY = {"move_overflow": "wait"}


def upgrade() -> None:
    keep_legacy("illuminati", LEGACY)


def downgrade() -> None:
    """Earlier code refuses options it does not know: take it out again."""
    drop_legacy("illuminati", LEGACY)
