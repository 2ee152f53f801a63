"""HTTP routes under /api."""
