"""Playing a Parley server from outside: an HTTP client, its tools for language models, an
MCP server over those tools, and a reference LLM player. Only HTTP: nothing here imports
the server."""
