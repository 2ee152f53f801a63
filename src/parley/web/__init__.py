"""The browser client (static files) and its map geometry."""
