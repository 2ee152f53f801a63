"""One spelling of every power: the texts people read (the game's seats, refusals, the
notifications of a turn and of press) say "France", never the map's "FRANCE"; the map,
the observations and the notation keep the map's names."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from tests.server.conftest import sign_up
from tests.server.test_notify import Hook, _notifier, _server

from parley import games

CAPITALS = re.compile(r"\b(AUSTRIA|ENGLAND|FRANCE|GERMANY|ITALY|RUSSIA|TURKEY)\b")
RULES: Any = games.find("diplomacy")


def test_the_rules_keep_the_maps_names_and_label_them_for_people() -> None:
    options = RULES.spec.resolve_options({})
    names = RULES.seat_names(7, options)
    assert names[2] == "FRANCE"  # the map's name, as the notation and the record spell it
    assert RULES.seat_labels(7, options) == [n.title() for n in names]


def test_no_text_a_player_reads_names_a_power_in_capitals(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    hook = Hook()
    live = _server(monkeypatch, tmp_path, WEBHOOK_ALLOW_PRIVATE="1")
    try:
        amy, bob = sign_up(live.url, "amy"), sign_up(live.url, "bob")
        for person in (amy, bob):
            person.call("PUT", "/api/me/notifications", json={"webhook_url": hook.url})
        body = {"game": "diplomacy", "name": "Spelling", "period_seconds": 3600}
        gid = amy.post("/api/games", body, expect=201)["id"]
        bob.post(f"/api/games/{gid}/join", {"role": "player"})
        amy.post(f"/api/games/{gid}/start", {"fill_with": "default"})
        game = amy.get(f"/api/games/{gid}")
        names = [s["name"] for s in game["seats"]]
        assert len(names) == 7 and names == [n.title() for n in names]
        me, other = game["you"]["seat"], bob.get(f"/api/games/{gid}")["you"]["seat"]
        texts: list[str] = [str(game)]  # observations hold map data: "FRANCE" stays there
        # A refusal that names the seat: nothing to take back.
        texts.append(amy.post(f"/api/games/{gid}/undo", expect=422)["message"])
        bob.post(f"/api/games/{gid}/press", {"text": "Shall we?", "to": [me]})
        notifier = _notifier(live)
        while notifier.run_once():  # a few at a time to one webhook host
            pass
        contents = [b["content"] for b in hook.bodies]
        assert any(names[me] in t and "to decide" in t for t in contents), contents
        assert any("Shall we?" in t and names[other] in t for t in contents), contents
        texts += contents
        assert f"{names[me]} has no action to take back" in texts[1]
        for text in texts:
            assert not CAPITALS.search(text), text
    finally:
        live.stop()
        hook.close()
