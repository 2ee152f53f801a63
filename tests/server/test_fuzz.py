"""Fuzz the whole HTTP API, gateway included, from its OpenAPI schema (schemathesis,
in-process, signed in): no 5xx and no answer outside its schema, ever.

Log-out is left out, so the fuzzer keeps its token; the example count per operation is
bounded so the run stays within a minute of a CI job.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)
from tests.server.conftest import make_settings

from parley.server import Settings, create_app
from parley.server.gateway import install


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, str, list[str]]]:
    """An app with a user who hosts a lobby game and plays in running ones (real games)."""
    folder = tmp_path_factory.mktemp("fuzz")
    app = _app(make_settings(f"sqlite:///{folder / 'fuzz.sqlite3'}"))
    with TestClient(app) as client:

        def post(path: str, token: str, body: Any = None) -> Any:
            response = client.post(path, json=body, headers={"Authorization": f"Bearer {token}"})
            assert response.status_code < 300, response.text
            return response.json()

        me = client.post("/api/users", json={"username": "fuzzer"}).json()["token"]
        other = client.post("/api/users", json={"username": "other"}).json()["token"]
        ids = [post("/api/games", me, {"game": "sucker"})["id"]]
        for game in ("sucker", "diplomacy"):
            gid = post("/api/games", other, {"game": game})["id"]
            post(f"/api/games/{gid}/join", me, {"role": "player"})
            post(f"/api/games/{gid}/start", other, {"fill_with": "random"})
            ids.append(gid)
        ids.append(post("/api/games", other, {"game": "sucker", "private": True})["id"])
        yield client, me, ids


def _app(settings: Settings) -> FastAPI:
    """The server as `parley serve` runs it: with the agent gateway."""
    app = create_app(settings)
    install(app, tick_seconds=None)
    return app


def _openapi() -> dict[str, Any]:
    """The schema, from an app that never opens its (in-memory) database."""
    return _app(make_settings("sqlite://", migrate=False)).openapi()


# Loaded at import from the schema alone; the cases are sent to the fixture's app.
schema = schemathesis.openapi.from_dict(_openapi()).exclude(
    method="DELETE", path="/api/sessions/current"
)


@schema.parametrize()
@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck), database=None)
def test_the_api_never_answers_5xx(case: Any, fuzzed: tuple[TestClient, str, list[str]]) -> None:
    client, token, ids = fuzzed
    if "game_id" in (case.path_parameters or {}):
        # Mostly aim at games that exist, so the fuzz reaches past the 404.
        pick = zlib.crc32(repr(case.body).encode() + repr(case.query).encode()) % (len(ids) + 1)
        if pick < len(ids):
            case.path_parameters["game_id"] = ids[pick]
    headers = {"Authorization": f"Bearer {token}"}
    kwargs = case.as_transport_kwargs(base_url="http://testserver", headers=headers)
    kwargs.pop("cookies", None)
    if isinstance(kwargs.get("data"), bytes | str):
        kwargs["content"] = kwargs.pop("data")
    response = client.request(**kwargs)
    case.validate_response(
        response,
        checks=[
            not_a_server_error,
            status_code_conformance,
            content_type_conformance,
            response_schema_conformance,
        ],
    )
