"""The arena: many seeded games between bots, with records, tallies and TrueSkill ratings."""

from .errors import ArenaError
from .play import ForkPoint, GameResult, GameTask, game_seeds, lineup, play_game, resolve_rules
from .ratings import Rating, Standings, Tally
from .run import ArenaConfig, ArenaReport, parse_bots, plan, run_arena

__all__ = [
    "ArenaConfig",
    "ArenaError",
    "ArenaReport",
    "ForkPoint",
    "GameResult",
    "GameTask",
    "Rating",
    "Standings",
    "Tally",
    "game_seeds",
    "lineup",
    "parse_bots",
    "plan",
    "play_game",
    "resolve_rules",
    "run_arena",
]
