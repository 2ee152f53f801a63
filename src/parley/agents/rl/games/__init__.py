"""Per-game action tables and observation encoders, one module per game."""
