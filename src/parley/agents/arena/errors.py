"""The arena's one error type."""

from __future__ import annotations

from parley.kernel import ParleyError


class ArenaError(ParleyError):
    """An arena run that cannot start: bad bots, a bad fork point, a missing backend, a
    folder holding another run."""

    code = "arena"
