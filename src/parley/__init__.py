"""Parley: multiplayer games of conquest and negotiation."""

__version__ = "0.1.0"
