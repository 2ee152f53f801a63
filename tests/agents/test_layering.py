"""The layers: `parley.agents` never imports the server, and the server uses only the bot
interface of `parley.agents` (`bots`, `protocol`). Read from every module's syntax tree, so
imports inside functions and under TYPE_CHECKING count too."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import parley

SRC = Path(parley.__file__).parent
BOT_INTERFACE = {"parley.agents", "parley.agents.bots", "parley.agents.protocol"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path) -> set[str]:
    """Every module `path` imports, absolute (`from . import x` gives the package and x)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base]) if base else ".".join(anchor)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def modules(package: str) -> list[Path]:
    found = sorted((SRC.parent / package.replace(".", "/")).rglob("*.py"))
    assert found, f"no modules under {package}"
    return found


def test_imports_are_read_right() -> None:
    seats = imports(SRC / "server" / "seats.py")
    assert "parley.agents.bots" in seats and "parley.server.live" in seats
    gateway = imports(SRC / "server" / "gateway" / "service.py")
    assert "parley.server.gateway.schemas" in gateway and "parley.server.errors" in gateway


def test_agents_never_import_the_server() -> None:
    bad = {
        module_name(path): sorted(
            i for i in imports(path) if i.split(".")[:2] == ["parley", "server"]
        )
        for path in modules("parley.agents")
    }
    assert {m: found for m, found in bad.items() if found} == {}


def test_the_server_uses_only_the_bot_interface() -> None:
    used = {
        module_name(path): sorted(
            i
            for i in imports(path)
            if i.split(".")[:2] == ["parley", "agents"] and i not in BOT_INTERFACE
        )
        for path in modules("parley.server")
    }
    assert {m: found for m, found in used.items() if found} == {}


def test_the_bot_registry_imports_without_the_server() -> None:
    # A fresh interpreter in which importing parley.server fails: the bots, the arena and
    # the remote player still load.
    code = (
        "import sys, importlib.abc\n"
        "class Block(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path, target=None):\n"
        "        if name == 'parley.server' or name.startswith('parley.server.'):\n"
        "            raise ImportError('blocked: ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "import parley.agents.bots, parley.agents.arena, parley.agents.remote.llm\n"
        "assert not any(m.startswith('parley.server') for m in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
