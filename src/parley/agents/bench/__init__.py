"""`parley bench`: seeded, reproducible games of chat models against bots or each other,
with win shares, Diplomacy centre scores, invalid answers, promises, tokens and cost, each
with intervals from a bootstrap over games; a leaderboard (JSON) and an HTML report.

The games are played by the arena (`parley.agents.arena`); a model plays as a bot
(`model.LLMBot`) shown the same decision text as through the gateway.
"""

from __future__ import annotations

from .profile import Profile, load_profile
from .run import BenchConfig, BenchReport, run_bench

__all__ = ["BenchConfig", "BenchReport", "Profile", "load_profile", "run_bench"]
