"""A chat model as a bot: plays a seat in process (the bench, the arena) through an
OpenAI-compatible endpoint, shown the same decision text as through the gateway.

Each decision is one chat: the system prompt of the reference player and the decision's
text (`parley.briefing`). The model answers with tools: `send_press` as it likes, then
`submit_action` (option ids, or the action in notation); plain words are read as notation.
An answer the rules refuse is shown to the model with the reason, up to the profile's
`retries`; then the seat plays its default action. A request that fails (no answer,
an HTTP error) is tried again up to `endpoint_retries` times, then the default too; such
failures are counted apart from invalid answers, as the endpoint's fault, not the model's.
"""

from __future__ import annotations

import json
import time
from typing import Any

import httpx

from parley.briefing import decision_text, offline_decision
from parley.kernel import ParleyError, Rules

from ..protocol import Decision, Reply, Say
from ..remote.llm import SYSTEM, Endpoint
from .profile import PREFIX, Profile, load_profile

TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "submit_action",
            "description": "Play your action: option ids (one per group when composite) "
            "or the action in notation. Exactly once per decision.",
            "parameters": {
                "type": "object",
                "properties": {
                    "options": {
                        "type": "array",
                        "items": {"type": "string"},
                        "description": "option ids from the list of legal actions",
                    },
                    "action": {"type": "string", "description": "the action in notation"},
                    "reasoning": {"type": "string", "description": "your private reasoning"},
                },
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "send_press",
            "description": "Send a message to other players (seat numbers in 'to'; none: "
            "everyone).",
            "parameters": {
                "type": "object",
                "properties": {
                    "text": {"type": "string", "description": "the message"},
                    "to": {"type": "array", "items": {"type": "integer"}},
                },
                "required": ["text"],
            },
        },
    },
]
COUNTERS = (
    "decisions",  # decisions asked of the model
    "answers",  # answers the endpoint gave
    "invalid",  # answers the rules refused (or that named no action)
    "defaulted",  # decisions that ended with the seat's default action
    "calls",  # requests sent
    "endpoint_errors",  # requests that got no usable answer
    "prompt_tokens",
    "completion_tokens",
    "cost",
    "press",  # messages the model sent
)


class LLMBot:
    """A bot whose every decision is asked of a chat model."""

    talks = True  # its press goes out through the arena's conversation
    acts_anytime = False  # asked only when its seat owes: every call costs

    def __init__(self, profile: Profile, rules: Rules[Any, Any]) -> None:
        self.profile = profile
        self.rules = rules
        self.name = PREFIX + profile.name
        self.endpoint = Endpoint(
            profile.base_url,
            profile.model,
            profile.api_key(),
            temperature=profile.temperature,
            max_tokens=profile.max_tokens,
        )
        self.http = httpx.Client(timeout=profile.timeout_seconds)
        self.counts: dict[str, float] = dict.fromkeys(COUNTERS, 0)
        self.log: list[dict[str, Any]] = []  # per decision: its usage, and the model's words

    def usage(self) -> list[dict[str, Any]]:
        """Per decision (seat, state id): requests, tokens, cost, refused answers, default.

        The arena writes these into the game's record (`usage`), and the model's words
        into its `notes` (private reasoning), which the dataset export reads."""
        return [dict(entry) for entry in self.log]

    def stats(self) -> dict[str, float]:
        """What this bot did in its game (the arena collects it into the game's result)."""
        return dict(self.counts)

    def accepts_draw(self, decision: Decision) -> bool:
        return False  # the model is not asked about draws; capped games end drawn anyway

    def choose(self, decision: Decision) -> Reply:
        match, seat, rules = decision.match, decision.seat, decision.rules
        if match is None:
            raise ParleyError("a model plays from a match")
        self.counts["decisions"] += 1
        inbox = [m for m in decision.inbox if m.get("type") == "press"]
        tries = self.profile.retries + 1
        d = offline_decision(
            rules, match, seat, player=self.name, messages=inbox, attempts_left=tries
        )
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": SYSTEM},
            {"role": "user", "content": decision_text({"decision": d}, now=time.time())},
        ]
        said: list[Say] = []
        tools = TOOLS if decision.press else TOOLS[:1]
        before = dict(self.counts)
        words: list[str] = []
        entry: dict[str, Any] = {"seat": seat, "state_id": match.state_id, "player": self.name}
        self.log.append(entry)

        def close(defaulted: bool) -> None:
            for key in ("calls", "answers", "invalid", "prompt_tokens", "completion_tokens"):
                entry[key] = int(self.counts[key] - before[key])
            entry["cost"] = round(self.counts["cost"] - before["cost"], 10)
            entry["defaulted"] = defaulted
            entry["model"] = self.profile.model
            if words:
                entry["reasoning"] = "\n".join(words)[:8000]

        for _ in range(tries):
            message = self._ask(messages, tools)
            if message is None:
                break
            messages.append({k: v for k, v in message.items() if v is not None})
            args, refusal = self._read(message, said, messages)
            thought = str(message.get("content") or "").strip()
            if isinstance(args, dict) and isinstance(args.get("reasoning"), str):
                thought = (thought + "\n" + args["reasoning"]).strip()
            if thought:
                words.append(thought)
            try:
                if args is None:
                    raise ValueError(refusal or "no submit_action call and no action in words")
                action = _action(rules, match, seat, d, args)
            except (ParleyError, ValueError) as err:
                self.counts["invalid"] += 1
                why = err.message if isinstance(err, ParleyError) else str(err)
                messages.append(
                    {
                        "role": "user",
                        "content": f"That was not accepted: {why}. Call submit_action with "
                        "one of the legal actions.",
                    }
                )
                continue
            self.counts["press"] += len(said)
            close(False)
            return Reply(action, press=tuple(said))
        close(True)
        self.counts["defaulted"] += 1
        self.counts["press"] += len(said)
        return Reply(rules.default_action(match.state, seat), press=tuple(said))

    def _ask(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]
    ) -> dict[str, Any] | None:
        """The model's message, or None when the endpoint gave none after its retries."""
        for _ in range(self.profile.endpoint_retries + 1):
            self.counts["calls"] += 1
            try:
                data = self.endpoint.chat(self.http, messages, tools)
                message = data["choices"][0]["message"]
                if not isinstance(message, dict):
                    raise ValueError("the answer's message is not an object")
            except (httpx.HTTPError, KeyError, IndexError, TypeError, ValueError):
                self.counts["endpoint_errors"] += 1
                continue
            usage = data.get("usage") or {}
            prompt = int(usage.get("prompt_tokens") or 0)
            completion = int(usage.get("completion_tokens") or 0)
            self.counts["prompt_tokens"] += prompt
            self.counts["completion_tokens"] += completion
            self.counts["cost"] += (
                prompt * self.profile.input_price + completion * self.profile.output_price
            )
            self.counts["answers"] += 1
            return message
        return None

    def _read(
        self, message: dict[str, Any], said: list[Say], messages: list[dict[str, Any]]
    ) -> tuple[dict[str, Any] | None, str]:
        """The submit_action arguments of an answer (press it sent goes into `said`)."""
        submitted: dict[str, Any] | None = None
        refusal = ""
        for call in message.get("tool_calls") or []:
            function = call.get("function") or {}
            name = function.get("name")
            try:
                args = json.loads(function.get("arguments") or "{}")
            except ValueError:
                args = None
            result = "ok"
            if not isinstance(args, dict):
                result = refusal = "the arguments are not a JSON object"
            elif name == "send_press" and isinstance(args.get("text"), str):
                to = args.get("to")
                ok_to = isinstance(to, list) and all(isinstance(t, int) for t in to)
                said.append(Say(args["text"][:2000], tuple(to) if ok_to and to else None))
            elif name == "submit_action" and submitted is None:
                submitted = args
            else:
                result = refusal = f"no tool called {name!r} here"
            messages.append({"role": "tool", "tool_call_id": call.get("id", ""), "content": result})
        if submitted is None and not message.get("tool_calls"):
            words = str(message.get("content") or "").strip()
            if words:
                submitted = {"action": words.splitlines()[-1].strip("` ")}
        return submitted, refusal


def _action(
    rules: Rules[Any, Any], match: Any, seat: int, d: dict[str, Any], args: dict[str, Any]
) -> Any:
    """The action an answer names, checked against the rules on a copy of the state."""
    by_id = {o["id"]: o for o in d["options"]}
    chosen = args.get("options")
    if isinstance(chosen, list) and chosen:
        unknown = [o for o in chosen if o not in by_id]
        if unknown:
            raise ValueError(f"no option {unknown[0]!r} in this decision")
        if d["composite"]:
            groups = [by_id[o]["group"] for o in chosen]
            if len(set(groups)) != len(groups):
                raise ValueError("one option per group: two answers were given for one group")
            parts = [rules.parse(by_id[o]["notation"], match.state, seat) for o in chosen]
            action = rules.combine(match.state, seat, parts)
        elif len(chosen) != 1:
            raise ValueError("this decision takes exactly one option")
        else:
            action = rules.parse(by_id[chosen[0]]["notation"], match.state, seat)
    elif isinstance(args.get("action"), str) and args["action"].strip():
        action = rules.parse(args["action"], match.state, seat)
    else:
        raise ValueError("submit_action needs 'options' (ids) or 'action' (notation)")
    rules.apply(rules.clone(match.state), seat, action)  # raises what the rules refuse
    return action


def llm_bot(name: str, rules: Rules[Any, Any]) -> LLMBot:
    """The bot `llm:<name>` (its profile read now; see `profile.load_profile`)."""
    return LLMBot(load_profile(name), rules)
