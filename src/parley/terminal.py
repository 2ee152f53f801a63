"""Playing and replaying in a terminal: `parley play` and `parley replay`.

Game text (notation, notes, messages, errors, the rendered board) is never read as Rich
markup: a bargain note such as `[/]` or a pile such as `[yellow blue red red]` is printed
as written. The loop is single-threaded: bots act one at a time and never while the
human's prompt is open, and the prompt accepts any action the seat may take then, owed
or out of turn. Bots run through the same `Conversation` as in the arena: their press
reaches the table, and a bot that acts anytime (a negotiator answering a bargain the human
proposed) gets its chance after every change, before the human's next prompt; bots take
at most `OUT_OF_TURN_PER_SEAT` such actions per bot seat between two other moves.

A game's view may carry `recent` (its latest public table events, oldest first) and
`events` (how many there have been in all); the terminal then tells each new one as it
happens, beside the log entries.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rich.console import Console
from rich.text import Text

from parley.agents.protocol import Bot, Conversation
from parley.kernel import (
    ARCHIVE,
    JSON,
    Match,
    OptionNode,
    ParleyError,
    Rng,
    Viewer,
)

HELP = """Commands:
  <action>               an action in the game's notation (see 'options')
  options                the actions you may take now
  board                  the table as you see it
  say TEXT               a message to everyone
  say to NAME[,NAME]: TEXT  a message to some players only
  help                   this list
  quit                   stop playing (the record is still saved with --save)
Pressing Enter at an out-of-turn prompt lets the others play on."""


def plain(console: Console, text: str, style: str | None = None) -> None:
    """Print game text as it is: no markup, no highlighting."""
    console.print(Text(text, style=style or ""), highlight=False, soft_wrap=True)


def table_events(view: Mapping[str, Any], since: int) -> tuple[list[str], int]:
    """The table events after the first `since`, and the count now (see the module doc)."""
    recent = view.get("recent")
    total = view.get("events")
    if not isinstance(recent, list) or not isinstance(total, int):
        return [], since
    fresh = max(0, min(total - since, len(recent)))
    return [str(e) for e in recent[len(recent) - fresh :]], total


def seat_label(match: Match[Any, Any], seat: int | None, me: int | None = None) -> str:
    if seat is None:
        return "table"
    name = match.seat_names()[seat]
    player = match.players[seat] if seat < len(match.players) else ""
    if seat == me:
        return f"{name} (you)"
    return f"{name} ({player})" if player and player != name else name


def entry_line(match: Match[Any, Any], entry: Mapping[str, JSON], me: int | None = None) -> str:
    """One log entry as a line of text."""
    seat = entry.get("seat")
    who = seat_label(match, seat if isinstance(seat, int) else None, me)
    kind = entry.get("type")
    if kind == "action":
        if entry.get("hidden"):
            return f"{who} acted (hidden until the step resolves)"
        auto = " (default, chosen for the seat)" if entry.get("auto") else ""
        return f"{who}: {entry.get('notation')}{auto}"
    if kind == "press":
        to = entry.get("to")
        if isinstance(to, list):
            names = ", ".join(seat_label(match, int(s), me) for s in to)
            return f"{who} to {names}: {entry.get('text')}"
        return f"{who} says: {entry.get('text')}"
    if kind == "vote":
        answer = entry.get("accept")
        return f"{who} voted on a draw" + (
            "" if answer is None else f" ({'yes' if answer else 'no'})"
        )
    if kind == "draw":
        return "Draw agreed by everyone" if entry.get("agreed") else "Draw rejected"
    return f"{who}: {kind}"


def tree_lines(node: OptionNode, depth: int = 0) -> list[str]:
    """The options tree as indented lines, every leaf in notation."""
    if node.action is not None:
        return ["  " * depth + node.action]
    lines = [] if depth == 0 and node.key == "root" else ["  " * depth + node.label + ":"]
    inner = depth if depth == 0 and node.key == "root" else depth + 1
    for child in node.children:
        lines.extend(tree_lines(child, inner))
    return lines


class Narrator:
    """Tells a viewer what happened since it last looked: log entries and table events."""

    def __init__(
        self, match: Match[Any, Any], viewer: Viewer, console: Console, me: int | None = None
    ) -> None:
        self.match = match
        self.viewer = viewer
        self.console = console
        self.shown = 0
        self.events = 0
        self.me = me  # the seat called "you" in the lines

    def view(self) -> Mapping[str, Any]:
        view = self.match.observe(self.viewer).get("view")
        return view if isinstance(view, Mapping) else {}

    def tell(self) -> None:
        """Print every entry and table event since the last call."""
        for entry in self.match.history(self.viewer, since=self.shown):
            plain(self.console, f"{entry['seq']:>5} {entry_line(self.match, entry, self.me)}")
            self.shown = int(entry["seq"]) + 1
        self.shown = max(self.shown, self.match.seq)
        fresh, self.events = table_events(self.view(), self.events)
        for event in fresh:
            plain(self.console, f"      · {event}", "bold")

    def board(self) -> None:
        plain(self.console, self.match.rules.render(self.match.observe(self.viewer)["view"]))

    def ranks(self) -> None:
        """The outcome and every seat's place."""
        outcome = self.match.outcome()
        if outcome is None:
            return
        plain(self.console, f"Game over: {outcome.reason}.", "bold")
        plain(self.console, "Final ranks:")
        for seat in sorted(range(self.match.seats), key=lambda s: (outcome.ranks[s], s)):
            mark = " — winner" if seat in outcome.winners and not outcome.draw else ""
            mark = " — shares the draw" if seat in outcome.winners and outcome.draw else mark
            who = seat_label(self.match, seat, self.me)
            plain(self.console, f"  {outcome.ranks[seat]}. {who}{mark}")


# How many out-of-turn actions each bot seat may take between two other moves: enough to
# answer every open bargain and make an offer, and a bound on bots answering each other.
OUT_OF_TURN_PER_SEAT = 3


class Session:
    """One human seat against bots, in a terminal."""

    def __init__(
        self,
        match: Match[Any, Any],
        me: int,
        bot: Bot,
        rng: Rng,
        console: Console,
        ask: Callable[[str], str],
    ) -> None:
        self.match = match
        self.me = me
        self.bot = bot
        self.rng = rng  # owed decisions
        self.talk = Conversation(match)
        self.bots = {seat: bot for seat in range(match.seats) if seat != me}
        self.rngs = [rng.fork(seat + 1) for seat in range(match.seats)]  # out of turn
        self.console = console
        self.ask = ask
        self.narrator = Narrator(match, Viewer.of(me), console, me)
        self.seen_options: list[str] | None = None
        self.hold = 0  # bot actions that may still come before the human's next prompt
        self.alive = True

    def my_options(self) -> list[str]:
        return self.match.rules.options_tree(self.match.state, self.me).leaves()

    def run(self) -> bool:
        """Play until the game ends (True) or the human quits (False)."""
        rules = self.match.rules
        plain(
            self.console,
            f"{rules.spec.title} — you are {self.match.seat_names()[self.me]}. "
            "Type an action, 'help', 'options', 'board', 'say TEXT' or 'quit'.",
            "bold",
        )
        while not self.match.is_over:
            self.bots_out_of_turn()
            self.narrator.tell()
            self.check_defeat()
            turn = self.match.turn()
            if self.me in turn.owing:
                owed = next(o for o in turn.owed if o.seat == self.me)
                self.narrator.board()
                why = f": {owed.prompt}" if owed.prompt else ""
                if not self.prompt(f"Your turn{why}", owed=True):
                    return False
                continue
            others = sorted(s for s in turn.owing if s != self.me)
            # Right after the human's out-of-turn action, the bot owing a move makes it
            # first (answering open bargains, the human's among them, before it moves), so
            # its answer is told before the next prompt; `hold` bounds the wait.
            if turn.can_act(self.me) and self.alive and not (self.hold and others):
                options = self.my_options()
                if options and options != self.seen_options:
                    if not self.prompt(
                        "You may act out of turn ('options' lists what; Enter lets play go on)",
                        owed=False,
                    ):
                        return False
                    continue
            if not others:
                break  # nobody owes anything: the rules will have ended the game
            self.bot_move(others[0])
            # Its move made, or out of patience: the human's prompt comes next.
            done = others[0] not in self.match.turn().owing
            self.hold = 0 if done else max(0, self.hold - 1)
        self.narrator.tell()
        self.check_defeat()
        if self.match.is_over:
            plain(self.console, "Final board:", "bold")
            self.narrator.board()
            self.narrator.ranks()
        return True

    def bot_move(self, seat: int) -> None:
        """The bot's owed decision; an answer the rules refuse gives the seat its default."""
        match = self.match
        try:
            action = self.talk.step(self.bot, seat, self.rng)
            if match.is_over or seat not in match.turn().owing:
                return  # its draw vote ended the game
            if action is None:
                raise ParleyError("an owed decision was answered with no action")
            match.act(seat, action)
        except ParleyError as err:
            plain(self.console, f"{seat_label(match, seat)}: {err.message}", "red")
            if not match.is_over and seat in match.turn().owing:
                match.act_default(seat)

    def bots_out_of_turn(self) -> None:
        """Let bot seats act out of turn until none wants to, within the bound."""
        limit = OUT_OF_TURN_PER_SEAT * len(self.bots)
        while limit > 0 and not self.match.is_over:
            acted = self.talk.out_of_turn(self.bots, self.rngs, limit=limit)
            if not acted:
                return
            limit -= len(acted)

    def check_defeat(self) -> None:
        rules = self.match.rules
        if self.alive and self.me not in rules.alive(self.match.state):
            self.alive = False
            name = self.match.seat_names()[self.me]
            plain(
                self.console,
                f"You ({name}) are defeated and out of the game; the others play on to the end.",
                "bold red",
            )

    def prompt(self, title: str, owed: bool) -> bool:
        """One prompt: an action, a command or (out of turn) Enter. False when quitting."""
        self.seen_options = self.my_options()
        plain(self.console, title, "bold yellow" if owed else "yellow")
        while True:
            try:
                text = self.ask("> ")
            except (EOFError, KeyboardInterrupt):
                return False
            command = text.strip()
            lower = command.lower()
            if not command:
                if owed:
                    continue
                return True
            if lower in ("quit", "exit"):
                return False
            if lower in ("help", "?"):
                plain(self.console, HELP)
                if notation := self.match.rules.notation_help():
                    plain(self.console, f"In {self.match.rules.spec.title}:\n{notation}")
                continue
            if lower == "options":
                self.show_options()
                continue
            if lower == "board":
                self.narrator.board()
                continue
            if lower == "say" or lower.startswith("say "):
                self.say(command[3:].strip())
                self.narrator.tell()
                continue
            try:
                self.match.act(self.me, command)
            except ParleyError as err:
                plain(self.console, err.message, "red")
                continue
            if not owed:  # an out-of-turn action: let the bot owing a move answer it first
                self.hold = OUT_OF_TURN_PER_SEAT * len(self.bots)
            return True

    def show_options(self) -> None:
        tree = self.match.rules.options_tree(self.match.state, self.me)
        lines = tree_lines(tree)
        # Typed forms no tree lists (a bargain's free text): 'help' shows them.
        more = bool(self.match.rules.notation_help()) and self.match.turn().can_act(self.me)
        if not lines:
            plain(self.console, "You have no action to take now.")
        else:
            plain(self.console, "Legal now:")
            for line in lines:
                plain(self.console, f"  {line}")
        if more:
            plain(self.console, "You may also type the actions 'help' lists (e.g. bargains).")

    def say(self, text: str) -> None:
        to: list[int] | None = None
        if text.lower().startswith("to ") and ":" in text:
            head, _, text = text[3:].partition(":")
            names = [n.strip().lower() for n in head.split(",") if n.strip()]
            seats = {name.lower(): s for s, name in enumerate(self.match.seat_names())}
            unknown = [n for n in names if n not in seats]
            if unknown:
                plain(self.console, f"no player called {', '.join(unknown)}", "red")
                return
            to = [seats[n] for n in names]
        try:
            self.match.say(self.me, text.strip(), to=to)
        except ParleyError as err:
            plain(self.console, err.message, "red")


def replay_record(
    rules: Any,
    record: Mapping[str, Any],
    viewer: Viewer,
    console: Console,
    pause: Callable[[], None] | None = None,
) -> Match[Any, Any]:
    """Tell a record entry by entry as `viewer` saw it; `pause` (if given) after each."""
    from parley.kernel import replay

    narrators: list[Narrator] = []

    def show(match: Match[Any, Any], _entry: Any) -> None:
        if not narrators:
            narrators.append(Narrator(match, viewer, console))
        narrators[0].tell()
        if pause is not None:
            narrators[0].board()
            pause()

    final = replay(rules, record, on_step=show)
    narrator = narrators[0] if narrators else Narrator(final, viewer, console)
    plain(console, "Final board:" if final.is_over else "The board:", "bold")
    narrator.board()
    if final.is_over:
        narrator.ranks()
    else:
        plain(console, "Outcome: the game goes on")
    return final


def viewer_for(seat: int) -> Viewer:
    """Seat numbers from 1; 0 is the archive, which sees everything."""
    return ARCHIVE if seat == 0 else Viewer.of(seat - 1)
