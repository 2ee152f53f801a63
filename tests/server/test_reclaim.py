"""Keeping a name: a password attached later, recovery codes, and what a second browser is
told; the bots each game offers, the heuristic first where there is one."""

from __future__ import annotations

from collections.abc import Callable

from tests.server.conftest import Client, LiveServer

Users = Callable[..., Client]


def test_a_taken_name_explains_how_to_reclaim_it(live: LiveServer, users: Users) -> None:
    users("ada")
    taken = Client(live.url, "ada").post("/api/users", {"username": "ADA"}, expect=409)
    assert taken["error"] == "username_taken"
    assert "recovery code" in taken["message"] and "password" in taken["message"]
    assert "first used it" in taken["message"]


def test_a_password_attached_later_signs_in_from_another_browser(
    live: LiveServer, users: Users
) -> None:
    ada = users("ada")
    assert ada.get("/api/me")["has_password"] is False
    elsewhere = Client(live.url, "ada")
    elsewhere.post("/api/sessions", {"username": "ada", "password": "correct horse"}, expect=401)
    out = ada.call("PUT", "/api/me/password", json={"password": "correct horse"})
    assert out["has_password"] is True
    assert ada.get("/api/me")["has_password"] is True
    signed = elsewhere.post("/api/sessions", {"username": "ada", "password": "correct horse"})
    assert signed["user"]["username"] == "ada"
    # Changing it needs the current one.
    refused = ada.call("PUT", "/api/me/password", 403, json={"password": "battery staple"})
    assert "current" in refused["message"]
    ada.call(
        "PUT",
        "/api/me/password",
        json={"password": "battery staple", "current_password": "correct horse"},
    )
    elsewhere.post("/api/sessions", {"username": "ada", "password": "battery staple"})
    ada.call("PUT", "/api/me/password", 422, json={"password": "short"})


def test_a_recovery_code_signs_in_once(live: LiveServer, users: Users) -> None:
    ada = users("ada")
    first = ada.post("/api/me/recovery-code")["code"]
    code = ada.post("/api/me/recovery-code")["code"]  # a new code replaces the earlier one
    assert code != first and len(code.replace("-", "")) == 20
    other = Client(live.url, "ada")
    body = {"username": "ada", "code": first}
    assert other.post("/api/sessions/recover", body, expect=401)["error"] == "unauthorized"
    wrong = {"username": "bob", "code": code}
    other.post("/api/sessions/recover", wrong, expect=401)
    typed = code.lower().replace("-", " ")  # as a person copies it
    out = other.post("/api/sessions/recover", {"username": "ADA", "code": typed})
    other.token = out["token"]
    assert other.get("/api/me")["username"] == "ada"
    again = {"username": "ada", "code": code}
    other.post("/api/sessions/recover", again, expect=401)  # spent
    assert ada.get("/api/me")["username"] == "ada"  # the first browser keeps its token


def test_each_game_offers_its_bots_with_the_heuristic_first(live: LiveServer) -> None:
    catalog = Client(live.url, "anyone").get("/api/game-types")
    by_name = {g["name"]: g for g in catalog["games"]}
    assert by_name["diplomacy"]["default_bot"] == "heuristic"
    assert "heuristic" in by_name["diplomacy"]["bots"]
    assert by_name["countdown"]["default_bot"] == "random"
    assert "heuristic" not in by_name["countdown"]["bots"]
