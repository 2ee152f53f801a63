"""Shared test configuration."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "parley",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("ci", parent=settings.get_profile("parley"), max_examples=60)
settings.load_profile("ci" if os.environ.get("CI") else "parley")
