// What the server keeps as data after a move: the last attack resolved (its terms, the
// number needed, the dice, the result), the bank's two counts, and a Move a Group waiting
// for its mover's yes or no. Every word and number is the observation's; nothing is judged
// here, and the question's two buttons send the server's own `accept`/`decline` leaves.

import { h } from "../dom.js";
import { TERMS } from "./attack.js";
import { seatName } from "./notation.js";

const RESULTS = {
  failed: "The attack failed",
  controlled: "Controlled",
  neutralized: "Neutralized",
  destroyed: "Destroyed",
};

const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");

/** One die as a small face with its number (the number is the text, for every reader). */
export function die(n, cls = "") {
  return h("span", { class: ["il-die", cls], dataset: { die: n } }, String(n));
}

/** The last attack resolved (`last_attack`), for everyone: who, on what, the terms, the
 * need, the dice and the result. `name(seat)` says a seat ("You" for the viewer);
 * `outcome`, when given, is the table's sentence for this same attack (from the log), shown
 * as its last line instead of the bare result. */
export function lastAttackBox(last, name, outcome = null) {
  const target = last.defender === null || last.defender === undefined ? `${last.target} (uncontrolled)` : `${last.target} (${name(last.defender)})`;
  const terms = Object.entries(last.terms || {}).filter(([, v]) => v !== 0);
  const dice = last.dice || [];
  const won = last.result !== "failed";
  return h(
    "section",
    { class: ["il-last-attack", won ? "won" : "lost"], id: "il-last-attack", "aria-label": "last attack", dataset: { result: last.result, need: last.need, roll: last.roll } },
    h("div", { class: "il-last-title" }, h("span", { class: "small muted" }, "Last attack · "), `${name(last.attacker_seat)}: ${last.attacker} on ${target} to ${last.kind}`, last.privileged ? h("span", { class: "badge il-privileged" }, "privileged") : null),
    h("div", { class: "small" }, `Power ${last.power} against ${last.resistance}`, last.aids && last.aids.length ? ` · aided by ${last.aids.join(", ")}` : ""),
    terms.length ? h("ul", { class: "il-terms il-last-terms" }, terms.map(([k, v]) => h("li", { dataset: { term: k } }, `${TERMS[k] || k.replace(/_/g, " ")} ${signed(v)}`))) : null,
    h(
      "div",
      { class: "il-last-roll" },
      h("span", { class: "il-last-need" }, `Needed ${last.need} or less`),
      h("span", { class: "il-dice", id: "il-last-dice" }, dice.map((d) => die(d))),
      h("span", { class: "il-last-sum" }, dice.length ? `= ${dice.reduce((a, b) => a + b, 0)}` : ""),
      last.roll_changed_by ? h("span", { class: "small" }, `${last.roll_changed_by} made it ${last.roll}`) : null,
    ),
    outcome
      ? h("div", { class: "il-last-result", id: "il-result" }, outcome)
      : h("div", { class: "il-last-result", id: "il-last-result" }, RESULTS[last.result] || last.result, autoFail(last) ? ": 11 or 12 always fails" : ""),
  );
}

/** A failure the need alone does not explain: the roll was within it, but 11 or 12. */
function autoFail(last) {
  return last.result === "failed" && last.roll >= 11 && last.roll <= last.need;
}

/** Whether the log's attack line (`Player 2 attacks X with Y to control`) is `last`'s. */
export function sameAttack(head, last) {
  return head === `Player ${last.attacker_seat + 1} attacks ${last.target} with ${last.attacker} to ${last.kind}`;
}

/** The bank's counts (`bank`: paid, received, money_in_play) in one line. */
export function bankLine(bank) {
  return h(
    "div",
    { class: "il-bank small", id: "il-bank", dataset: { paid: bank.paid, received: bank.received } },
    h("strong", {}, "Bank"),
    ` paid out ${bank.paid} MB · received ${bank.received} MB · ${bank.money_in_play} MB in play`,
  );
}

/** A move waiting for its mover's answer (`move_question`): the group, where it would go,
 * the cards that would be lost. `answers` are the viewer's own accept/decline leaves (empty
 * for everyone else); `send(text)` sends one. */
export function moveQuestionPanel(q, name, answers, send) {
  const mine = answers.length > 0;
  const yes = answers.find((a) => a.kind === "accept");
  const no = answers.find((a) => a.kind === "decline");
  return h(
    "section",
    { class: "il-prompt il-move-question", id: "il-move-question", role: mine ? "dialog" : "status", "aria-label": "move a group", dataset: { group: q.group, host: q.host, direction: q.direction } },
    h("strong", {}, `${name(q.seat)}: move ${q.group} to ${q.host} ${q.direction}?`),
    h("div", {}, `${q.lost.length === 1 ? "This card does" : "These cards do"} not fit there and would go to the uncontrolled area, with ${q.lost.length === 1 ? "its" : "their"} money to the bank:`),
    h("ul", { class: "il-lost", id: "il-lost" }, q.lost.map((card) => h("li", { dataset: { card } }, card))),
    mine
      ? h(
          "div",
          { class: "row" },
          yes ? h("button", { type: "button", class: "primary", id: "il-move-accept", dataset: { action: yes.text }, onClick: () => send(yes.text) }, `Yes, move and lose ${q.lost.length === 1 ? "it" : "them"}`) : null,
          no ? h("button", { type: "button", id: "il-move-decline", dataset: { action: no.text }, onClick: () => send(no.text) }, "No, leave everything as it was") : null,
        )
      : h("div", { class: "small muted" }, `${name(q.seat)} answers: yes makes the move, no changes nothing.`),
  );
}
