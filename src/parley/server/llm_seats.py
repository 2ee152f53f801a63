"""Chat models as server bot seats: a seat whose bot is `llm:PROFILE` is played by a task of
the server's event loop, never under the game's lock.

The operator installs profiles (`parley.agents.bench.profile`) in the folder named by
`PARLEY_LLM_PROFILES`; `llm:NAME` names `NAME.toml` there, and nothing else: a player can
pick only a profile the operator installed, never a path or a URL. The seats' automation
(`parley.server.seats.Automation`) leaves such a seat alone and tells `LLMSeats` that it
owes a decision. A task then copies the game under the lock, lets go of it, and asks the
model outside it (in a worker thread, at most the profile's `concurrency` at once), with the
same decision text the gateway serves (`parley.briefing`); a refused answer is shown back
to the model up to the profile's `retries`, then the game's default action is played. The
answer is submitted as a change with the state id it was made for, so one that comes after
the game moved on is refused, not applied. Requests, tokens and cost per decision are saved
with the seat's memory, and the export puts them into the game's record as `usage`
(`parley.server.export`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from parley.agents import bots
from parley.kernel import ActionEntry, BadOptions, ParleyError, Rng, Viewer

from . import memory
from .errors import ServerError
from .live import Tables, Txn
from .press import check_press
from .vocab import Controller, GameStatus, PressMode

log = logging.getLogger(__name__)

FOLDER_ENV = "PARLEY_LLM_PROFILES"
_PLAIN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.\-]{0,27}")  # `llm:` + 28: a bot column
_SALT = 0x11A
USAGE = "usage"  # the key of a model seat's saved memory that holds its decisions' usage


def profiles_folder() -> Path | None:
    """The folder of installed profiles (`PARLEY_LLM_PROFILES`), or None: none installed."""
    folder = os.environ.get(FOLDER_ENV, "").strip()
    return Path(folder) if folder else None


def installed() -> list[str]:
    """The `llm:NAME` bot names of the installed profiles, sorted."""
    folder = profiles_folder()
    if folder is None or not folder.is_dir():
        return []
    names = (p.stem for p in folder.glob("*.toml") if p.is_file())
    plain = (n for n in names if _PLAIN.fullmatch(n) and not n.startswith("."))
    return sorted(bots.MODEL_PREFIX + n for n in plain)


def is_llm(name: str | None) -> bool:
    return bool(name) and str(name).startswith(bots.MODEL_PREFIX)


def check(name: str) -> Any:
    """The installed profile `llm:NAME`; BadOptions listing the installed ones otherwise."""
    short = name[len(bots.MODEL_PREFIX) :]
    folder = profiles_folder()
    known = ", ".join(installed()) or "none (the server has no PARLEY_LLM_PROFILES folder)"
    if folder is None or not _PLAIN.fullmatch(short) or (name not in installed()):
        raise BadOptions(f"no model profile {name!r} installed; installed: {known}", text=name)
    return bots.model_profile(short, folder)


class LLMSeats:
    """Plays the `llm:` seats of every game in this process, one task per owed decision."""

    def __init__(self, tables: Tables, max_press_chars: int = 2000) -> None:
        self.tables = tables
        self.max_press_chars = max_press_chars
        self._loop: asyncio.AbstractEventLoop | None = None
        self._busy: set[tuple[str, int, int]] = set()  # (game, seat, state id) being thought
        self._tasks: set[asyncio.Task[None]] = set()
        self._limits: dict[str, asyncio.Semaphore] = {}  # per profile: its `concurrency`
        self._lock = threading.Lock()

    # --- lifecycle ----------------------------------------------------------------------

    def start(self) -> None:
        """Bind to the running event loop (the server's)."""
        self._loop = asyncio.get_running_loop()

    async def stop(self) -> None:
        self._loop = None
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):  # stopping
                await task

    # --- the automation's notice --------------------------------------------------------

    def wake(self, game_id: str, seat: int, bot: str, state_id: int) -> None:
        """The seat owes a decision at `state_id`: start its task (any thread, any lock)."""
        loop = self._loop
        key = (game_id, seat, state_id)
        with self._lock:
            if loop is None or key in self._busy:
                return
            self._busy.add(key)
        loop.call_soon_threadsafe(self._spawn, key, bot)

    def _spawn(self, key: tuple[str, int, int], bot: str) -> None:
        task = asyncio.get_running_loop().create_task(self._play(key, bot))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # --- one decision -------------------------------------------------------------------

    async def _play(self, key: tuple[str, int, int], name: str) -> None:
        game_id, seat, state_id = key
        try:
            snapshot = await asyncio.to_thread(self._snapshot, game_id, seat, name, state_id)
            if snapshot is None:
                return
            bot, decision = snapshot
            try:
                limit = self._limits.setdefault(name, asyncio.Semaphore(bot.profile.concurrency))
                async with limit:
                    reply = await asyncio.to_thread(bot.choose, decision)
            finally:
                bot.http.close()
            entry = bot.usage()[-1] if bot.log else {}
            await asyncio.to_thread(self._submit, game_id, seat, name, state_id, reply, entry)
        except asyncio.CancelledError:
            raise
        except Exception:  # a failure here must not stop other seats; the deadline remains
            log.exception("model seat %s of game %s failed", seat, game_id)
        finally:
            with self._lock:
                self._busy.discard(key)

    def _owes(self, txn: Txn, seat: int, name: str, state_id: int) -> bool:
        match = txn.match
        member = txn.live.at_seat(seat)
        return (
            txn.status is GameStatus.ACTIVE
            and not match.is_over
            and match.state_id == state_id
            and seat in match.turn().owing
            and member is not None
            and member.controller is Controller.BOT
            and (member.bot or txn.row.takeover_bot) == name
        )

    def _snapshot(
        self, game_id: str, seat: int, name: str, state_id: int
    ) -> tuple[Any, bots.Decision] | None:
        """Under the lock: a copy of the game to think on (None: nothing owed any more)."""

        def fn(txn: Txn) -> tuple[Any, bots.Decision] | None:
            if not self._owes(txn, seat, name, state_id):
                return None
            try:
                profile = check(name)
            except BadOptions as err:  # uninstalled since: the seat plays the default
                log.warning("model seat %s of game %s: %s", seat, game_id, err.message)
                txn.act_default(seat, actor=f"bot:{name}")
                return None
            match = txn.match.copy()
            rng = Rng(txn.row.seed ^ _SALT).fork(match.seq + 1)
            decision = bots.Decision(
                match.rules,
                seat,
                match.state,
                rng,
                match=match,
                inbox=self._inbox(txn, seat),
                owed=True,
                press=txn.row.press is not PressMode.NONE,
            )
            # One bot per decision: its counts and its log are this decision's alone.
            return bots.model_bot(profile, txn.live.rules), decision

        return self.tables.change(game_id, fn, f"bot:{name}")

    @staticmethod
    def _inbox(txn: Txn, seat: int) -> list[dict[str, Any]]:
        """Press for the seat since its last action (the model keeps no other memory here)."""
        match = txn.match
        since = next(
            (
                e.seq + 1
                for e in reversed(match.entries)
                if isinstance(e, ActionEntry) and e.seat == seat
            ),
            0,
        )
        return [
            e
            for e in match.history(Viewer.of(seat), since)
            if e.get("type") == "press" and e.get("seat") != seat
        ]

    def _submit(
        self,
        game_id: str,
        seat: int,
        name: str,
        state_id: int,
        reply: Any,
        usage: dict[str, Any],
    ) -> None:
        """The answer as one change, aimed at `state_id`: stale answers are dropped (their
        usage is kept: the tokens were spent)."""

        def fn(txn: Txn) -> None:
            keep_usage(txn, seat, name, usage)
            if not self._owes(txn, seat, name, state_id):
                log.info("model seat %s of game %s answered too late", seat, game_id)
                return
            action = reply.action if isinstance(reply, bots.Reply) else reply
            for say in _press(reply) if txn.row.press is not PressMode.NONE else ():
                try:
                    text, to, channel = check_press(
                        txn.row.press,
                        say.text,
                        None if say.to is None else list(say.to),
                        say.channel,
                        self.max_press_chars,
                    )
                    txn.say(seat, text, to, channel)
                except (ServerError, ParleyError) as err:
                    log.info("model seat %s's message not sent: %s", seat, err)
            txn.act(seat, action, actor=f"bot:{name}", state_id=state_id)

        try:
            self.tables.change(game_id, fn, f"bot:{name}")
        except ParleyError as err:  # the rules refused it after all: the default, as bots
            log.warning("model seat %s of game %s refused: %s", seat, game_id, err)
            self.tables.change(
                game_id,
                lambda txn: self._default(txn, seat, name, state_id, usage),
                f"bot:{name}",
            )

    def _default(
        self, txn: Txn, seat: int, name: str, state_id: int, usage: dict[str, Any]
    ) -> None:
        keep_usage(txn, seat, name, {**usage, "defaulted": True})
        if self._owes(txn, seat, name, state_id):
            txn.act_default(seat, actor=f"bot:{name}")


def keep_usage(txn: Txn, seat: int, name: str, usage: dict[str, Any]) -> None:
    """Add one decision's requests, tokens and cost to the seat's saved memory (`usage`),
    which the export reads into the record (the model's words stay out: they are private)."""
    if not usage:
        return
    kept = list(memory.load_bot(txn.session, txn.row.id, seat, name).get(USAGE) or [])
    kept.append({k: v for k, v in usage.items() if k != "reasoning"})
    memory.save_bot(txn.session, txn.row.id, seat, name, {USAGE: kept}, (USAGE,), txn.now)


def _press(reply: Any) -> Iterable[bots.Say]:
    return reply.press if isinstance(reply, bots.Reply) else ()
