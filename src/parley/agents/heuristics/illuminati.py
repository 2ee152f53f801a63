"""An Illuminati player that attacks by odds and value, spends where it matters, and
gangs up on the leader.

* Attacks: every legal attack is priced: the chance on 2d6 of the number needed (with all
  free aid and the money it is willing to spend) times the target's worth (income, power,
  what its goal wants, and +1.5 for taking it from a rival), less the money. It attacks
  when that beats a small threshold, else collects 5 MB by passing.
* Money: spends from its Illuminati only as far as it raises the chance, keeping a
  reserve; as defender it spends the target's treasury, then its own, against likely
  successes; as a bystander it interferes against the leader (or for whoever attacks the
  leader).
* Specials: cashes money cards, bribes the best uncontrolled group, plays Murphy's Law on
  a leader's success and Assassination on its own failure, Senate Investigating Committee
  on the leader's turn, Market Manipulation when its groups earn, and Secrets Man Was Not
  Meant to Know against the leader's cards.

It reads only what its seat may see (public structures and treasuries, its own hand).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parley.games.illuminati import (
    Abolish,
    Accept,
    Aid,
    Ask,
    Attack,
    ChooseGoal,
    ChooseIlluminati,
    Decline,
    Done,
    IlluminatiState,
    Interfere,
    Keep,
    Pass,
    Phase,
    Place,
    Play,
    Roll,
    Spend,
    engine,
)
from parley.games.illuminati.cards import Alignment
from parley.games.illuminati.geometry import subtree
from parley.games.illuminati.state import AttackState
from parley.kernel import Rules

from ..draws import heuristic_accepts
from ..protocol import Decision

_CHANCE = {n: c / 36 for n, c in zip(range(2, 11), (1, 3, 6, 10, 15, 21, 26, 30, 33), strict=True)}
_PREFERRED = (
    "Gnomes of Zurich",
    "Bavarian Illuminati",
    "Network",
    "Servants of Cthulhu",
    "Society of Assassins",
    "Bermuda Triangle",
    "Discordian Society",
    "UFOs",
)


def chance(need: int) -> float:
    """P(2d6 <= need), 11 and 12 always failing."""
    if need < 2:
        return 0.0
    return _CHANCE[min(need, 10)]


def strength(state: IlluminatiState, seat: int) -> float:
    p = state.players[seat]
    if p.eliminated or not p.illuminati:
        return -1.0
    return len(p.groups()) + 0.02 * sum(p.money.values())


def leader(state: IlluminatiState, me: int) -> int | None:
    """The strongest rival, if it is at least as strong as me."""
    rivals = [s for s in engine.alive(state) if s != me]
    if not rivals:
        return None
    best = max(rivals, key=lambda s: strength(state, s))
    return best if strength(state, best) >= strength(state, me) else None


class IlluminatiHeuristic:
    """Odds-and-value attacks, money where it changes the odds, against the leader."""

    name = "heuristic"

    def __init__(self, rules: Rules[Any, Any]) -> None:
        self.rules = rules
        self._answered: set[tuple[int, int, int, str, int]] = set()

    def accepts_draw(self, decision: Decision) -> bool:
        """Late enough in the game, and not ahead (`parley.agents.draws`)."""
        return heuristic_accepts(decision)

    def choose(self, decision: Decision) -> Any:
        state: IlluminatiState = decision.state
        me = decision.seat
        legal = list(decision.legal)
        choice = self._choose(state, me, legal)
        if choice is None or (choice not in legal and not isinstance(choice, Attack)):
            return decision.rules.default_action(state, me)
        return choice

    # --- per phase -----------------------------------------------------------------------

    def _choose(self, state: IlluminatiState, me: int, legal: Sequence[Any]) -> Any:
        phase = state.phase
        if phase is Phase.CHOOSE:
            names = {a.name for a in legal if isinstance(a, ChooseIlluminati)}
            return ChooseIlluminati(next(n for n in _PREFERRED if n in names))
        if phase is Phase.GOAL:
            return ChooseGoal("Bavarian Illuminati")
        if phase is Phase.KEEP:
            return Keep(False)
        if phase is Phase.START:
            return self._start(state, me, legal)
        if phase is Phase.MAIN:
            return self._main(state, me, legal)
        if phase is Phase.ATTACK:
            return self._attacking(state, me, legal)
        if phase is Phase.REACT:
            return self._react(state, me, legal)
        if phase is Phase.AFTER_ROLL:
            return self._after_roll(state, me, legal)
        if phase is Phase.SECRETS:
            return self._secrets(state, me, legal)
        if phase is Phase.PLACE:
            places = [a for a in legal if isinstance(a, Place)]
            return places[0] if places else None
        if phase is Phase.PRICE:
            return Ask()
        if phase is Phase.ANSWER:
            offer = state.offer
            assert offer is not None
            free = not offer.price_group and not offer.price_money
            return Accept() if free else Decline()
        if phase is Phase.REORGANIZE:
            return Done()
        return None

    def _start(self, state: IlluminatiState, me: int, legal: Sequence[Any]) -> Any:
        if Play("Senate Investigating Committee") in legal and leader(state, me) == state.active:
            return Play("Senate Investigating Committee")
        if Play("Market Manipulation") in legal:
            income = sum(max(0, engine.card(g).income) for g in state.players[me].groups())
            if income >= 6:
                return Play("Market Manipulation")
        return Pass()

    def _main(self, state: IlluminatiState, me: int, legal: Sequence[Any]) -> Any:
        for card in ("Swiss Bank Account", "Slush Fund"):
            if Play(card) in legal:
                return Play(card)
        bribes = [a for a in legal if isinstance(a, Play) and a.card == "Bribery"]
        if bribes:
            return max(bribes, key=lambda a: worth(state, me, a.target or ""))
        best = self._best_attack(state, me, legal)
        if best is not None:
            return best
        return Done() if state.acted else Pass()

    def _best_attack(self, state: IlluminatiState, me: int, legal: Sequence[Any]) -> Any:
        player = state.players[me]
        cash = player.money[player.illuminati]
        budget = max(0, cash - 4)  # a reserve for defence
        best: tuple[float, Any] | None = None
        aid_power = self._free_aid(state, me)
        for action in legal:
            if not isinstance(action, Attack):
                continue
            if action.kind == "destroy" and engine.owner(state, action.target) == me:
                continue
            probe = AttackState(
                me, action.attacker, action.target, action.kind, engine.owner(state, action.target)
            )
            base = engine.need(state, probe) + aid_power.get(action.attacker, 0)
            value = worth(state, me, action.target)
            if action.kind == "neutralize":
                value *= 0.5
            elif action.kind == "destroy":
                cthulhu = engine.card(player.illuminati).name == "Servants of Cthulhu"
                value = (2.5 if cthulhu else 0.6) + (
                    1.0 if engine.owner(state, action.target) == leader(state, me) else 0.0
                )
            spend = max(0, min(budget, 8 - base))
            score = chance(base + spend) * value - 0.08 * spend
            if best is None or score > best[0]:
                best = (
                    score,
                    Attack(action.target, action.attacker, action.kind, spend) if spend else action,
                )
        if best is not None and best[0] > 0.6:
            return best[1]
        return None

    def _free_aid(self, state: IlluminatiState, me: int) -> dict[str, int]:
        """For each attacker, the transferable power of the other free cards that may aid it."""
        player = state.players[me]
        free = {
            n: engine.card(n).transferable
            for n in player.links
            if engine.card(n).transferable > 0 and engine.free_to_attack(state, n)
        }
        total = sum(free.values())
        return {n: total - free.get(n, 0) for n in player.links}

    def _attacking(self, state: IlluminatiState, me: int, legal: Sequence[Any]) -> Any:
        aids = [a for a in legal if isinstance(a, Aid)]
        if aids:
            return aids[0]
        a = state.attack
        assert a is not None
        need = engine.need(state, a)
        player = state.players[me]
        cash = player.money[player.illuminati]
        if a.opened and need < 8 and cash > 4 and chance(need) < 0.9:
            amount = min(cash - 4, 8 - need)
            if amount > 0 and Spend(amount) in legal:
                return Spend(amount)
        return Roll()

    def _react(self, state: IlluminatiState, me: int, legal: Sequence[Any]) -> Any:
        a = state.attack
        assert a is not None
        # one answer per round of a window, then pass
        key = (me, state.turn_number, state.actions_used, a.target, a.attack_money)
        if key in self._answered:
            return Pass()
        choice = self._answer(state, me, legal, a)
        if not isinstance(choice, Pass):
            self._answered.add(key)
        return choice

    def _answer(self, state: IlluminatiState, me: int, legal: Sequence[Any], a: AttackState) -> Any:
        need = engine.need(state, a)
        player = state.players[me]
        top = leader(state, me)
        if me == a.defender:
            if chance(need) <= 0.05:
                return Pass()
            group_money = player.money.get(a.target, 0)
            if group_money and Spend(group_money, a.target) in legal:
                return Spend(group_money, a.target)
            cash = player.money[player.illuminati]
            want = (need - 1) // 2 + 1
            amount = min(want, cash // 2)
            if amount > 0 and Spend(amount) in legal:
                return Spend(amount)
            return Pass()
        if a.privileged and a.attacker_seat == top:
            if Play("Deep Agent") in legal:
                return Play("Deep Agent")
            abolish = [x for x in legal if isinstance(x, Abolish)]
            if abolish and len(state.players[me].hand) > 3:
                return abolish[0]
        cash = player.money[player.illuminati]
        budget = cash // 4
        if budget <= 0:
            return Pass()
        if a.attacker_seat == top and chance(need) > 0.2:
            amount = min(budget, need - 1)
            if amount > 0 and Interfere(amount, True) in legal:
                return Interfere(amount, True)
        elif a.defender is not None and a.defender == top and chance(need) < 0.8:
            amount = min(budget, max(1, 8 - need))
            if Interfere(amount, False) in legal:
                return Interfere(amount, False)
        return Pass()

    def _after_roll(self, state: IlluminatiState, me: int, legal: Sequence[Any]) -> Any:
        a = state.attack
        assert a is not None and a.roll is not None
        succeeds = a.roll <= 10 and a.roll <= engine.need(state, a)
        if (
            a.attacker_seat == me
            and not succeeds
            and Play("Assassination") in legal
            and engine.need(state, a) >= 2
        ):
            return Play("Assassination")
        hurt = a.defender == me or a.attacker_seat == leader(state, me)
        if a.attacker_seat != me and succeeds and hurt and Play("Murphy's Law") in legal:
            return Play("Murphy's Law")
        return Pass()

    def _secrets(self, state: IlluminatiState, me: int, legal: Sequence[Any]) -> Any:
        played = state.playing
        answer = Play("Secrets Man Was Not Meant to Know")
        if played is None or answer not in legal:
            return Pass()
        against_me = played.card == "Senate Investigating Committee" and state.active == me
        if against_me or played.seat == leader(state, me):
            return answer
        return Pass()


def worth(state: IlluminatiState, me: int, group: str) -> float:
    """What a group is worth to `me`: income, power, its use for my goal, a rival's loss."""
    c = engine.card(group)
    player = state.players[me]
    value = 2.0 + 0.3 * max(c.income, 0) + 0.35 * c.power + 0.25 * c.transferable
    goal = engine.card(player.illuminati).name if not player.goal else player.goal
    if goal == "Discordian Society" and Alignment.WEIRD in c.alignments:
        value += 1.5
    if goal == "Society of Assassins" and Alignment.VIOLENT in c.alignments:
        value += 1.5
    if goal == "Network":
        value += 0.3 * c.transferable
    if goal == "Bavarian Illuminati":
        value += 0.2 * c.power
    holder = engine.owner(state, group)
    if holder is not None and holder != me:
        value += 1.5 + (1.0 if holder == leader(state, me) else 0.0)
        value += 0.5 * (len(subtree(state.players[holder].links, group)) - 1)
    return value


def make(rules: Rules[Any, Any]) -> IlluminatiHeuristic:
    return IlluminatiHeuristic(rules)
