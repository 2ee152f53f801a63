"""Playing and replaying in a terminal: `parley play` and `parley replay`.

Game text (notation, notes, messages, errors, the rendered board) is never read as Rich
markup: a bargain note such as `[/]` or a pile such as `[yellow blue red red]` is printed
as written. The loop is single-threaded: bots act one at a time and never while the
human's prompt is open, and the prompt accepts any action the seat may take then, owed
or out of turn. Bots run through the same `Conversation` as in the arena: their press
reaches the table, and a bot that acts anytime (a negotiator answering a bargain the human
proposed) gets its chance after every change, before the human's next prompt; bots take
at most `OUT_OF_TURN_PER_SEAT` such actions per bot seat between two other moves.

Every log entry the viewer may see is told, and so is every table event (a battle and its
dice, a capture, an elimination): the narrator keeps its own copy of the game, replays the
record on it one action at a time and reads each action's new events from the viewer's
observation of that copy, never from the raw state. Each game's observation keeps only its
latest events beside a count of all of them (`EVENT_READERS`); read after every single
action, that tail is always long enough.

A decision made of parts (Diplomacy's orders, one per unit: an options tree with `each`)
is drafted part by part, listed, changed or removed, and submitted with `done`, as the web
client's saved orders are; each part is read and checked by the game's own parser and
options, and the whole is made by `Rules.combine`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from rich.console import Console
from rich.text import Text

from parley.agents.protocol import Bot, Conversation
from parley.kernel import (
    ARCHIVE,
    JSON,
    ActionEntry,
    IllegalAction,
    InvalidAction,
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

DRAFT_HELP = """Orders, one part of your decision at a time (one order per unit):
  <order>                draft an order; a new order for a unit replaces its draft
  <order>; <order>       several at once ({separators})
  orders                 the orders drafted so far, and the units still without one
  remove <unit>          take a unit's draft back (e.g. 'remove A PAR' or 'remove PAR')
  clear                  take every draft back
  done                   submit the drafted orders (a unit without one gets the default)
Nothing is submitted before 'done'."""


def plain(console: Console, text: str, style: str | None = None) -> None:
    """Print game text as it is: no markup, no highlighting."""
    console.print(Text(text, style=style or ""), highlight=False, soft_wrap=True)


EventTail = tuple[list[str], int]
"""The latest table events as text (oldest first), and how many there have been in all."""


def _texts(items: Any, key: str | None = None) -> list[str]:
    if not isinstance(items, list):
        return []
    if key is None:
        return [str(item) for item in items]
    return [str(item.get(key, "")) for item in items if isinstance(item, Mapping)]


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _sucker_events(view: Mapping[str, Any]) -> EventTail:
    return _texts(view.get("recent")), _count(view.get("events"))


def _campus_events(view: Mapping[str, Any]) -> EventTail:
    return _texts(view.get("events"), "text"), _count(view.get("event_count"))


def _planets_events(view: Mapping[str, Any]) -> EventTail:
    events = view.get("events")
    if not isinstance(events, list) or not events:
        return [], 0
    return _texts(events, "text"), _count(events[-1].get("n"))  # `n` counts from 1


def _illuminati_events(view: Mapping[str, Any]) -> EventTail:
    return _texts(view.get("log")), _count(view.get("log_count"))


def _diplomacy_events(view: Mapping[str, Any]) -> EventTail:
    """Each adjudicated phase is an event: its orders and what became of them."""
    told: list[str] = []
    for phase in view.get("last") or []:
        lines = [f"Results of {phase.get('phase')}:"]
        for power, results in (phase.get("results") or {}).items():
            lines.extend(f"  {power:<8} {r.get('order')}: {r.get('message')}" for r in results)
        told.append("\n".join(lines))
    phases = view.get("phases")
    return told, len(phases) if isinstance(phases, list) else 0


# Where each game's observation keeps its latest table events and the count of all of them.
EVENT_READERS: dict[str, Callable[[Mapping[str, Any]], EventTail]] = {
    "sucker": _sucker_events,
    "campus": _campus_events,
    "planets": _planets_events,
    "illuminati": _illuminati_events,
    "diplomacy": _diplomacy_events,
}
# Games whose events say nothing when a seat is knocked out: the narrator says it.
SILENT_ELIMINATIONS = frozenset({"diplomacy"})


def _or(separators: str) -> str:
    return " or ".join(f"'{c}'" for c in separators) or "nothing (one a line)"


def _fills(typed: str, read: str) -> bool:
    """True when `read` only adds to `typed` (a unit letter, a coast) and changes no word."""
    words = iter(read.split())
    return all(any(w == t or w.startswith(t + "/") for w in words) for t in typed.split())


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
    if kind == "takeback":
        return f"{who} took back #{entry.get('of')}"
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
    """Tells a viewer what happened since it last looked: log entries and table events.

    It keeps its own copy of the game (`shadow`), brought up to date one action at a time,
    so that the events of every single action are read from the viewer's observation of
    that copy, however many actions came between two calls.
    """

    def __init__(
        self, match: Match[Any, Any], viewer: Viewer, console: Console, me: int | None = None
    ) -> None:
        self.match = match
        self.viewer = viewer
        self.console = console
        self.shown = 0
        self.me = me  # the seat called "you" in the lines
        rules = match.rules
        # The copy starts where the record starts (its set-up or position): it replays
        # every entry.
        self.shadow: Any = rules.clone(match.state) if match.seq == 0 else match.start_state()
        self.reader = EVENT_READERS.get(rules.spec.name, _sucker_events)
        self.events = -1  # table events told so far; -1 until those of the setup are
        self.alive = set(rules.alive(self.shadow))
        self.ended = False  # "Game over" told (by the final board or the ranks)
        self.synced = 0  # entries before this one are already in the copy

    def _tail(self) -> EventTail:
        return self.reader(self.match.rules.observe(self.shadow, self.viewer))

    def tell(self) -> None:
        """Print every entry and table event since the last call."""
        if self.events < 0:
            self.events = 0
            self._tell_events()  # what the setup did (a first turn begun, units placed)
        seen = {int(e["seq"]): e for e in self.match.history(self.viewer, since=self.shown)}
        for seq in range(self.shown, self.match.seq):
            entry = seen.get(seq)
            if entry is not None:
                plain(self.console, f"{seq:>5} {entry_line(self.match, entry, self.me)}")
            raw = self.match.entries[seq]
            if isinstance(raw, ActionEntry) and seq >= self.synced:
                self._follow(raw)
            self.shown = seq + 1

    def _follow(self, entry: ActionEntry[Any]) -> None:
        """Apply one action to the copy and tell the events it caused, as the viewer sees them."""
        rules = self.match.rules
        try:
            rules.apply(self.shadow, entry.seat, entry.action)
        except ParleyError:  # cannot happen for an action the game took; never lose the thread
            self.shadow = rules.clone(self.match.state)
            self.synced = self.match.seq  # the copy is the game now: later entries only
        self._tell_events()
        alive = set(rules.alive(self.shadow))
        if rules.spec.name in SILENT_ELIMINATIONS:
            names = self.match.seat_names()
            for seat in sorted(self.alive - alive):
                if seat != self.me:  # the player hears of their own defeat in their words
                    plain(self.console, f"      · {names[seat]} is out of the game.", "bold")
        self.alive = alive

    def _tell_events(self) -> None:
        tail, total = self._tail()
        fresh = max(0, min(total - self.events, len(tail)))
        self.events = max(total, self.events)
        for event in tail[len(tail) - fresh :]:
            plain(self.console, f"      · {event}", "bold")

    def board(self) -> None:
        text = self.match.rules.render(self.match.observe(self.viewer)["view"])
        if self.match.is_over and "Game over" in text:
            self.ended = True
        plain(self.console, text)

    def ranks(self) -> None:
        """The outcome and every seat's place; "Game over" unless the board said it."""
        outcome = self.match.outcome()
        if outcome is None:
            return
        if not self.ended:
            plain(self.console, f"Game over: {outcome.reason}.", "bold")
            self.ended = True
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
        self.drafts: dict[str, str] = {}  # slot key → part drafted, in the game's notation
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
        """One prompt: an action, a command or (out of turn) Enter. False when quitting.

        An owed decision made of parts is drafted part by part and submitted with `done`.
        """
        self.seen_options = self.my_options()
        tree = self.match.rules.options_tree(self.match.state, self.me)
        drafting = owed and tree.each and bool(tree.children)
        plain(self.console, title, "bold yellow" if owed else "yellow")
        if drafting:
            self.drafts = {}
            plain(
                self.console,
                f"Draft your orders: one a line, or several separated by "
                f"{_or(self.separators(tree))}. 'orders' lists them, 'remove A PAR' or "
                "'clear' takes them back, 'done' submits them; 'help' tells more.",
            )
            self.list_drafts(tree)
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
                if drafting:
                    plain(self.console, DRAFT_HELP.format(separators=_or(self.separators(tree))))
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
            if drafting:
                if self.draft_command(command, tree):
                    return True
                continue
            try:
                self.match.act(self.me, command)
            except ParleyError as err:
                plain(self.console, err.message, "red")
                continue
            if not owed:  # an out-of-turn action: let the bot owing a move answer it first
                self.hold = OUT_OF_TURN_PER_SEAT * len(self.bots)
            return True

    # --- drafting a decision made of parts ------------------------------------------------

    def separators(self, tree: OptionNode) -> str:
        """The characters that split a line into parts: ';' and ',', unless a choice holds one."""
        leaves = tree.leaves()
        return "".join(c for c in ";," if not any(c in leaf for leaf in leaves))

    def draft_command(self, command: str, tree: OptionNode) -> bool:
        """A line typed while drafting; True once the decision is submitted."""
        lower = command.lower()
        if lower == "done":
            return self.submit_drafts(tree)
        if lower in ("orders", "drafts", "list"):
            self.list_drafts(tree)
        elif lower == "clear":
            self.drafts = {}
            plain(self.console, "Every draft is taken back.")
            self.list_drafts(tree)
        elif lower == "remove" or lower.startswith("remove "):
            self.remove_draft(command[6:].strip(), tree)
        else:
            self.draft_line(command, tree)
        return False

    def draft_line(self, text: str, tree: OptionNode) -> None:
        """Draft each part of the line the game reads as one of the choices; refuse the rest."""
        seps = self.separators(tree)
        pieces = re.split(f"[{re.escape(seps)}]", text) if seps else [text]
        for piece in (p.strip() for p in pieces):
            if not piece:
                continue
            try:
                key, canonical, note = self.read_part(piece, tree)
            except ParleyError as err:
                why = err.message
                if "," in piece and "," not in seps:
                    why += " (',' does not separate orders here: use ';' or one a line)"
                plain(self.console, f"Not drafted: {why}", "red")
                continue
            if note:
                plain(self.console, note, "yellow")
            self.drafts[key] = canonical
        self.list_drafts(tree)

    def read_part(self, text: str, tree: OptionNode) -> tuple[str, str, str]:
        """The slot a typed part fills, the part in the game's notation, and a note to say
        aloud when the game's reading added to what was typed (a unit letter, a coast)."""
        rules, state = self.match.rules, self.match.state
        try:
            action = rules.parse(text, state, self.me)  # the game's reading on this board
        except ParleyError:
            raise
        except Exception as err:  # a parser tripping over odd input must not end the game
            raise InvalidAction(f"{text!r} could not be read ({type(err).__name__})") from err
        canonical = rules.format(action)
        fitting = [c for c in tree.children if canonical in c.leaves()]
        if not fitting:
            raise IllegalAction(self.why_not(action, canonical), text=text)
        typed = self.as_typed(text)
        note = ""
        if typed is not None and typed != canonical:
            if not _fills(typed, canonical):
                raise IllegalAction(
                    f"{typed} does not match the board: there it can only be {canonical} "
                    "(another unit or coast than the one typed); type that if you mean it",
                    text=text,
                )
            note = f"{typed} is read as {canonical}."
        same = [c for c in fitting if self.drafts.get(c.key) == canonical]
        free = [c for c in fitting if c.key not in self.drafts]
        if same or free or len(fitting) == 1:
            return (same or free or fitting)[0].key, canonical, note
        raise IllegalAction(
            f"every place {canonical} could fill is drafted ("
            + ", ".join(self.drafts[c.key] for c in fitting)
            + "); 'remove' one first",
            text=text,
        )

    def as_typed(self, text: str) -> str | None:
        """The part as written, read without the board (None when it cannot be)."""
        rules = self.match.rules
        try:
            return str(rules.format(rules.parse(text)))
        except Exception:  # only compared with the board's reading; that one is checked
            return None

    def why_not(self, action: Any, canonical: str) -> str:
        """The game's own reason for refusing a part, from applying it to a copy."""
        rules = self.match.rules
        probe = rules.clone(self.match.state)
        try:
            rules.apply(probe, self.me, rules.combine(probe, self.me, [action]))
        except ParleyError as err:
            return err.message
        return f"{canonical} is not one of your choices now ('options' lists them)"

    def remove_draft(self, what: str, tree: OptionNode) -> None:
        key = " ".join(what.upper().split())
        if not key:
            plain(self.console, "Remove which? e.g. 'remove A PAR'; 'clear' removes all.", "red")
            return
        for child in tree.children:
            drafted = self.drafts.get(child.key, "")
            names = (child.key.upper(), child.label.upper(), drafted.upper())
            if drafted and (key in names or drafted.upper().startswith(key + " ")):
                del self.drafts[child.key]
                plain(self.console, f"Removed {drafted}.")
                self.list_drafts(tree)
                return
        drafted = ", ".join(self.drafts.values()) or "nothing"
        plain(self.console, f"No drafted order for {what}; drafted: {drafted}.", "red")

    def list_drafts(self, tree: OptionNode) -> None:
        plain(self.console, f"Drafted ({tree.label}); 'done' submits:")
        width = max(len(c.label) for c in tree.children)
        for child in tree.children:
            drafted = self.drafts.get(child.key)
            shown = drafted if drafted is not None else "(no order yet: the default)"
            plain(self.console, f"  {child.label:<{width}}  {shown}")

    def submit_drafts(self, tree: OptionNode) -> bool:
        """Submit the drafts as one action made by the game; on refusal keep them all."""
        rules, state = self.match.rules, self.match.state
        try:
            parts = [
                rules.parse(self.drafts[c.key], state, self.me)
                for c in tree.children
                if c.key in self.drafts
            ]
            action = (
                rules.combine(state, self.me, parts)
                if parts
                else rules.default_action(state, self.me)
            )
            self.match.act(self.me, action)
        except ParleyError as err:
            plain(
                self.console, f"{err.message}. Nothing was submitted; the drafts are kept.", "red"
            )
            return False
        if not parts:
            plain(self.console, "Nothing drafted: the default is submitted.")
        self.drafts = {}
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
    narrator.tell()  # a record without entries: what the setup did
    if pause is None or not narrators:  # stepping showed the board after the last entry
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
