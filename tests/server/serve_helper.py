"""A server process for the multi-process and crash tests, with the toy games registered.

python -m tests.server.serve_helper --port 8123 --database-url sqlite:///x.sqlite3
"""

from __future__ import annotations

import argparse

import uvicorn
from tests.kernel.toygames import Countdown, SealedBids

from parley import games
from parley.server import Limits, Settings, create_app


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--redis-url")
    parser.add_argument("--redis-prefix", default="parley:")
    parser.add_argument("--poll", type=float, default=0.1)
    parser.add_argument("--snapshot-every", type=int, default=64)
    args = parser.parse_args()
    for rules in (Countdown(), SealedBids()):
        if rules.spec.name not in games.names():
            games.register(rules)
    settings = Settings(
        database_url=args.database_url,
        redis_url=args.redis_url,
        redis_prefix=args.redis_prefix,
        scheduler_poll_seconds=args.poll,
        snapshot_every=args.snapshot_every,
        limits=Limits(rate_per_second=1000.0, rate_burst=1000.0, signup_burst=1000.0),
    )
    uvicorn.run(
        create_app(settings),
        host="127.0.0.1",
        port=args.port,
        ws="websockets-sansio",
        log_level="warning",
    )


if __name__ == "__main__":
    main()
