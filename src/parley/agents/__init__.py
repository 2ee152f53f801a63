"""Bots, the agent gateway, RL adapters and the arena."""
