"""Model profiles: a TOML file naming an OpenAI-compatible endpoint and how to use it.

    base_url = "http://127.0.0.1:8080/v1"
    model = "my-model"
    api_key_env = "OPENAI_API_KEY"    # the key is read from this variable, never stored
    temperature = 0.0
    max_tokens = 512                  # per answer
    concurrency = 2                   # games played at once against this endpoint
    input_price = 0.0000005           # per prompt token (any currency; reports say "cost")
    output_price = 0.0000015          # per completion token
    retries = 2                       # refused answers shown back to the model, then default
    timeout_seconds = 120             # per request
    endpoint_retries = 3              # failed requests (no answer) tried again, then default

`llm:NAME` names the profile `NAME.toml` in the profiles folder (`--profiles`, default the
current folder), or `llm:PATH.toml` a file.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tomllib
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from parley.kernel.errors import BadOptions

PREFIX = "llm:"
FOLDER_ENV = "PARLEY_BENCH_PROFILES"  # where worker processes find the profiles
_NAME = re.compile(r"[A-Za-z0-9_.\-/]{1,200}")


@dataclass(frozen=True, slots=True)
class Profile:
    name: str
    base_url: str
    model: str
    api_key_env: str = "OPENAI_API_KEY"
    temperature: float | None = 0.0
    max_tokens: int | None = None
    concurrency: int = 1
    input_price: float = 0.0
    output_price: float = 0.0
    retries: int = 2
    timeout_seconds: float = 120.0
    endpoint_retries: int = 3

    def public(self) -> dict[str, Any]:
        """The profile as a run records it (the key's variable name, never the key)."""
        return asdict(self)

    def digest(self) -> str:
        text = json.dumps(self.public(), sort_keys=True)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

    def api_key(self) -> str:
        return os.environ.get(self.api_key_env, "") if self.api_key_env else ""


_FIELDS: dict[str, tuple[type, ...]] = {
    "base_url": (str,),
    "model": (str,),
    "api_key_env": (str,),
    "temperature": (int, float),
    "max_tokens": (int,),
    "concurrency": (int,),
    "input_price": (int, float),
    "output_price": (int, float),
    "retries": (int,),
    "timeout_seconds": (int, float),
    "endpoint_retries": (int,),
}
_LIMITS: dict[str, tuple[float, float]] = {
    "temperature": (0, 2),
    "max_tokens": (1, 1_000_000),
    "concurrency": (1, 256),
    "input_price": (0, 1),
    "output_price": (0, 1),
    "retries": (0, 20),
    "timeout_seconds": (0.1, 3600),
    "endpoint_retries": (0, 20),
}


def profile_path(name: str, folder: Path | None = None) -> Path:
    """Where the profile `name` (the part after `llm:`) is read from."""
    if not _NAME.fullmatch(name):
        raise BadOptions(
            f"{PREFIX}{name}: a profile is named by letters, digits and . _ - / only", text=name
        )
    base = folder or Path(os.environ.get(FOLDER_ENV) or ".")
    path = Path(name) if name.endswith(".toml") else Path(f"{name}.toml")
    return path if path.is_absolute() else base / path


def load_profile(name: str, folder: Path | None = None) -> Profile:
    """The profile `name`; BadOptions naming the file and the field when anything is wrong."""
    path = profile_path(name, folder)
    where = f"{PREFIX}{name} ({path})"
    try:
        if not path.is_file():
            raise BadOptions(f"{where}: no such profile file", text=name)
        if path.stat().st_size > 64_000:
            raise BadOptions(f"{where}: a profile is at most 64 KB", text=name)
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as err:
        raise BadOptions(f"{where}: not valid TOML: {err}", text=name) from None
    except (OSError, UnicodeDecodeError) as err:
        raise BadOptions(f"{where}: cannot be read: {err}", text=name) from None
    unknown = sorted(set(data) - set(_FIELDS))
    if unknown:
        known = ", ".join(_FIELDS)
        raise BadOptions(f"{where}: unknown field {unknown[0]!r}; fields: {known}", text=name)
    for field in ("base_url", "model"):
        if not data.get(field):
            raise BadOptions(f"{where}: {field} is required", text=name)
    for field, value in data.items():
        kinds = _FIELDS[field]
        if isinstance(value, bool) or not isinstance(value, kinds):
            wanted = "a number" if float in kinds else kinds[0].__name__
            raise BadOptions(f"{where}: {field} must be {wanted}, not {value!r}", text=name)
        if field in _LIMITS:
            low, high = _LIMITS[field]
            if not isinstance(value, int | float) or not low <= value <= high:
                raise BadOptions(f"{where}: {field} must be from {low:g} to {high:g}", text=name)
    if not str(data["base_url"]).startswith(("http://", "https://")):
        raise BadOptions(f"{where}: base_url must start with http:// or https://", text=name)
    data["base_url"] = str(data["base_url"]).rstrip("/")
    return Profile(name=name, **data)
