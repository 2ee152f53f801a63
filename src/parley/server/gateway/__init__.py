"""The agent gateway: external agents play seats over HTTP/WebSocket with a time budget.

`install(app)` adds it to a server app; see `routes.py` for the endpoints and
`service.py` for the rules (budgets, retries, defaults, private reasoning), `sqlstore.py`
for the records kept in the server's database.
"""

from .routes import install
from .service import Gateway, GatewayConfig
from .sqlstore import SqlStore
from .store import DecisionStatus, GatewayStore, MemoryStore

__all__ = [
    "DecisionStatus",
    "Gateway",
    "GatewayConfig",
    "GatewayStore",
    "MemoryStore",
    "SqlStore",
    "install",
]
