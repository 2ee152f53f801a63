"""Persistence: the schema, its migrations and the engine."""
