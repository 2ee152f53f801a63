"""Illuminati (Steve Jackson Games): the card game of secret conspiracies on the Parley kernel."""
