"""The bot interface: what a bot sees (`Decision`), what it answers (an action or a
`Reply` with press and a draw vote), and `Conversation`, which runs talking bots on a match.

Bots that talk: `choose` may return a `Reply` carrying press and a draw vote beside the
action, a bot whose `acts_anytime` is true is asked when its seat may act out of turn
(returning a `Reply` with no action to let the moment pass), and `decision.inbox` holds the
press and events addressed to the seat since the bot last decided.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from parley.kernel import JSON, Match, ParleyError, Rng, Rules, Viewer

from . import draws


class Decision:
    """What a bot sees when asked to act for a seat.

    `observation` is the seat's own redacted view (kernel envelope with the game's `view`
    inside); `legal` lists the seat's elementary legal actions (one order of one unit, for
    composite games). Both are computed on first use, so a bot that needs neither (the
    random bot) costs nothing. `state` is the rules' state, for convenience; bots must
    not read what the seat could not see from it.
    """

    __slots__ = (
        "_legal",
        "_match",
        "_observation",
        "inbox",
        "memory",
        "owed",
        "press",
        "rng",
        "rules",
        "seat",
        "state",
    )

    def __init__(
        self,
        rules: Rules[Any, Any],
        seat: int,
        state: Any,
        rng: Rng,
        *,
        observation: dict[str, JSON] | None = None,
        legal: Sequence[Any] | None = None,
        match: Match[Any, Any] | None = None,
        inbox: Sequence[dict[str, JSON]] = (),
        owed: bool = True,
        press: bool = True,
        memory: dict[str, Any] | None = None,
    ) -> None:
        if match is None and (observation is None or legal is None):
            raise ValueError("a decision needs its match, or its observation and legal actions")
        self.rules = rules
        self.seat = seat
        self.state = state
        self.rng = rng
        self._observation = observation
        self._legal = legal
        self._match = match
        self.inbox = list(inbox)  # press and events for this seat since its last decision
        self.owed = owed  # False: asked out of turn, and may let the moment pass
        self.press = press  # whether the table allows this seat to send press now
        # What the bot keeps between decisions of this seat in this game (bot objects are
        # shared between seats and games, so they keep nothing themselves).
        self.memory = memory if memory is not None else {}

    @property
    def observation(self) -> dict[str, JSON]:
        if self._observation is None:
            assert self._match is not None
            self._observation = self._match.observe(Viewer.of(self.seat))
        return self._observation

    @property
    def match(self) -> Match[Any, Any] | None:
        """The match asked about, when the caller gave it (its record, for draw votes)."""
        return self._match

    @property
    def legal(self) -> Sequence[Any]:
        if self._legal is None:
            assert self._match is not None
            self._legal = self._match.legal_actions(self.seat)
        return self._legal

    @property
    def view(self) -> dict[str, JSON]:
        """The game's part of the observation."""
        view = self.observation.get("view", {})
        return view if isinstance(view, dict) else {}

    def notations(self) -> list[str]:
        """The legal actions in canonical notation, in the rules' order."""
        return [self.rules.format(a) for a in self.legal]


@dataclass(frozen=True, slots=True)
class Say:
    """A message: to everyone (`to` None) or to the listed seats."""

    text: str
    to: tuple[int, ...] | None = None
    channel: str = ""


@dataclass(frozen=True, slots=True)
class Reply:
    """A bot's full answer: an action (None: nothing now), press sent first, a draw vote."""

    action: Any = None
    press: tuple[Say, ...] = field(default_factory=tuple)
    draw: bool | None = None


class Bot(Protocol):
    name: str

    def choose(self, decision: Decision) -> Any:
        """An action of the game for `decision.seat`, or a `Reply`.

        A bot may also have `accepts_draw(decision) -> bool`, its answer to a draw another
        seat proposed (see `draw_vote`); a bot without one refuses every draw.
        """


class RandomBot:
    """Uniformly random legal actions (every part drawn, for composite games)."""

    name = "random"

    def choose(self, decision: Decision) -> Any:
        return decision.rules.random_action(decision.state, decision.seat, decision.rng)

    def accepts_draw(self, decision: Decision) -> bool:
        """Never before the game's earliest point for draws, then a coin from its stream."""
        return draws.random_accepts(decision)


class DefaultBot:
    """Always the seat's default action: a baseline that plays like an absent player."""

    name = "default"

    def choose(self, decision: Decision) -> Any:
        return decision.rules.default_action(decision.state, decision.seat)

    def accepts_draw(self, decision: Decision) -> bool:
        """As a seat in civil disorder: once the game is late enough for a draw."""
        return decision.match is not None and draws.unplayed_accepts(decision.rules, decision.match)


BotFactory = Callable[[Rules[Any, Any]], Bot]


def decision_for(match: Match[Any, Any], seat: int, rng: Rng) -> Decision:
    """What `seat` sees in `match` now, as a bot's input."""
    return Decision(match.rules, seat, match.state, rng, match=match)


def decide(bot: Bot, match: Match[Any, Any], seat: int, rng: Rng) -> Any:
    """Ask `bot` for `seat`'s action in `match` (not applied); press it sends is dropped."""
    answer = bot.choose(decision_for(match, seat, rng))
    return answer.action if isinstance(answer, Reply) else answer


def draw_vote(bot: Bot, decision: Decision) -> bool:
    """The bot's answer to the draw proposed at `decision.seat`'s table: its
    `accepts_draw(decision)`, or a refusal when it has none."""
    judge = getattr(bot, "accepts_draw", None)
    return bool(judge(decision)) if callable(judge) else False


def acts_anytime(bot: Bot) -> bool:
    """Whether the bot wants to be asked when its seat may act out of turn."""
    return bool(getattr(bot, "acts_anytime", False))


class Conversation:
    """Runs talking bots on a match: each seat's inbox, their press, votes and actions.

    `step(bot, seat, rng, owed)` asks the bot, sends its press (when `press` allows),
    casts its vote, and returns the action to apply (None: the bot let the moment pass).
    `out_of_turn` gives the seats whose bots act anytime their chance to act out of turn
    (answer a bargain, make an offer), and applies what they choose.
    """

    def __init__(self, match: Match[Any, Any], press: bool = True) -> None:
        self.match = match
        self.press = press
        self.read = [0] * match.seats  # history read so far, per seat
        self.sent = [0] * match.seats
        self.memory: list[dict[str, Any]] = [{} for _ in range(match.seats)]
        self.asked = [-1] * match.seats  # the record's length when last asked out of turn

    def inbox(self, seat: int) -> list[dict[str, JSON]]:
        """Press from others and table entries this seat has not been shown yet."""
        match = self.match
        since = self.read[seat]
        self.read[seat] = match.seq
        return [
            e
            for e in match.history(Viewer.of(seat), since)
            if e.get("type") in ("press", "draw") and e.get("seat") != seat
        ]

    def step(self, bot: Bot, seat: int, rng: Rng, owed: bool = True) -> Any:
        match = self.match
        decision = Decision(
            match.rules,
            seat,
            match.state,
            rng,
            match=match,
            inbox=self.inbox(seat),
            owed=owed,
            press=self.press,
            memory=self.memory[seat],
        )
        answer = bot.choose(decision)
        if not isinstance(answer, Reply):
            return answer
        if self.press:
            for say in answer.press:
                match.say(seat, say.text, say.to, say.channel)
                self.sent[seat] += 1
        if answer.draw is not None and not match.is_over:
            match.vote_draw(seat, answer.draw)
        return answer.action

    def out_of_turn(
        self,
        bots: Mapping[int, Bot],
        rngs: Sequence[Rng],
        *,
        limit: int | None = None,
        on_error: Callable[[int, ParleyError], None] | None = None,
    ) -> list[int]:
        """Ask each seat in `bots` whose bot acts anytime, and that may act out of turn now,
        for an action, and apply it; the seats that acted, in order.

        A seat is asked again only once the record has grown since it was last asked, so
        calling this until nobody acts ends; `limit` caps the actions taken in one call. An
        action the rules refuse is reported to `on_error` and costs the seat its chance.
        """
        match = self.match
        acted: list[int] = []
        turn = match.turn()
        for seat in sorted(turn.anytime - turn.owing):
            bot = bots.get(seat)
            if bot is None or not acts_anytime(bot) or match.is_over:
                continue
            if (limit is not None and len(acted) >= limit) or self.asked[seat] >= match.seq:
                continue
            if not match.turn().can_act(seat):
                continue
            try:
                action = self.step(bot, seat, rngs[seat], owed=False)
                if action is not None and not match.is_over:
                    match.act(seat, action)
                    acted.append(seat)
            except ParleyError as err:
                if on_error is not None:
                    on_error(seat, err)
            self.asked[seat] = match.seq
        return acted
