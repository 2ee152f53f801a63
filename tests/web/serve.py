"""A Parley server for the browser tests, as `parley serve` runs it: one process, SQLite.

python -m tests.web.serve --port 8123 --database-url sqlite:////tmp/x.sqlite3
"""

from __future__ import annotations

import argparse

import uvicorn

from parley.server import Settings, create_app


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--database-url", required=True)
    args = parser.parse_args()
    settings = Settings(database_url=args.database_url, scheduler_poll_seconds=0.2)
    uvicorn.run(create_app(settings), host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
