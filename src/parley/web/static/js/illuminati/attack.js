// The attack in progress, as everyone sees it: the announcement, the number needed on two
// dice with its terms, who has answered and how, the countdown, the roll; and afterwards
// the result in words. Every number comes from the server's observation.

import { h } from "../dom.js";
import { seatName } from "./notation.js";

export const TERMS = {
  power: "attacking power",
  aid: "aid",
  defence: "defence",
  alignment: "alignments",
  position: "distance from its Illuminati",
  special: "special powers",
  neutralize: "attack to neutralize",
  money: "attacker's money",
  defence_money: "defender's money",
  interference: "interference",
};

const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");

/**
 * The chance of an attack that needs `need` or less on two dice, in words: the count of the
 * 36 throws that win. A roll of 11 or 12 always fails (docs/illuminati.md), so a need of 33
 * is not a sure thing; from a need of 11 up the player is told why it is not.
 */
export function needWords(need) {
  let wins = 0;
  for (let sum = 2; sum <= Math.min(need, 10); sum += 1) wins += 6 - Math.abs(sum - 7);
  if (wins === 0) return "cannot succeed";
  return need >= 11 ? `${wins} in 36: 11 or 12 always fails` : `${wins} in 36`;
}

/** The actions taken since the current attack was announced, by seat (from the public log of
 * actions), for a server that does not list the attack's answers itself. */
export function answersSince(entries) {
  const acts = entries.filter((e) => e.type === "action" && e.notation);
  let start = -1;
  acts.forEach((e, i) => {
    if (/^attack .+ to (control|neutralize|destroy)/.test(e.notation) || e.notation === "attack again") start = i;
  });
  const out = new Map();
  for (const e of acts.slice(start + 1)) {
    if (!out.has(e.seat)) out.set(e.seat, []);
    out.get(e.seat).push(e.notation);
  }
  return out;
}

/** The decisions on the attack the server lists (`answers`: [{seat, action}]), by seat. */
function byAnswer(answers) {
  const out = new Map();
  for (const { seat, action } of answers) {
    if (!out.has(seat)) out.set(seat, []);
    out.get(seat).push(action);
  }
  return out;
}

function answerWords(list) {
  return list
    .map((t) => {
      if (t === "pass") return "passed";
      const m = t.match(/^interfere (\d+)( against)?$/);
      if (m) return `interfered ${m[2] ? "against" : "for"} the attack with ${m[1]} MB`;
      if (t.startsWith("play ")) return `played ${t.slice(5)}`;
      if (t.startsWith("spend ")) return `spent ${t.slice(6)} MB`;
      if (t.startsWith("privilege")) return "made it privileged";
      if (t.startsWith("abolish")) return "abolished privilege";
      return t;
    })
    .join(", ");
}

export function drawAttack(a, view, ctx, countdown) {
  const me = ctx.mySeat();
  const name = (seat) => (seat === me ? "You" : seatName(seat));
  const target = a.defender === null || a.defender === undefined ? `${a.target} (uncontrolled)` : `${a.target} (${name(a.defender)})`;
  const terms = Object.entries(a.terms || {}).filter(([, v]) => v !== 0);
  const answered = a.answers ? byAnswer(a.answers) : answersSince(ctx.entries);
  const owed = view.owed ? view.owed.seat : null;
  const others = view.players.filter((p) => p.seat !== a.attacker_seat && !p.eliminated).map((p) => p.seat);
  const rows = others.map((seat) => {
    const said = answered.get(seat);
    let status = said ? answerWords(said) : "not yet";
    if (seat === owed && ["react", "after_roll", "secrets"].includes(view.phase)) status = `${said ? `${status}; ` : ""}to answer now`;
    else if (!said && view.phase === "attack") status = "waits for the announcement";
    return h("li", { dataset: { seat }, class: seat === owed ? "il-owed" : "" }, h("strong", {}, name(seat)), `: ${status}`);
  });
  const attackerSaid = answered.get(a.attacker_seat);
  const phaseWords = {
    attack: `${name(a.attacker_seat)} ${a.attacker_seat === me ? "are" : "is"} announcing: aid, money, then announce.`,
    react: "The others answer in turn: interfere, play a special, or pass.",
    after_roll: "The dice are rolled; a special may still change the roll.",
    secrets: "A special card was played; it may be answered.",
    place: "The captured group is being placed.",
  };
  return h(
    "div",
    { class: "il-attack-box", id: "il-attack-box", dataset: { target: a.target, kind: a.kind } },
    h("div", { class: "il-attack-title" }, `${name(a.attacker_seat)}: ${a.attacker} attacks ${target} to ${a.kind}`, a.privileged ? h("span", { class: "badge il-privileged" }, "privileged") : null, a.privilege_abolished ? h("span", { class: "badge" }, "privilege abolished") : null),
    h(
      "div",
      { class: "il-need", id: "il-need", dataset: { need: a.need } },
      a.roll === null || a.roll === undefined ? `Needs ${a.need} or less on two dice` : `Needed ${a.need} or less`,
      a.roll === null || a.roll === undefined ? h("span", { class: "il-chance", id: "il-chance" }, ` (${needWords(a.need)})`) : null,
    ),
    terms.length ? h("ul", { class: "il-terms" }, terms.map(([k, v]) => h("li", { dataset: { term: k } }, `${TERMS[k] || k.replace(/_/g, " ")} ${signed(v)}`))) : null,
    a.aids.length ? h("div", { class: "small" }, `Aided by ${a.aids.join(", ")}`) : null,
    attackerSaid ? h("div", { class: "small muted" }, `${name(a.attacker_seat)}: ${attackerSaid.join("; ")}`) : null,
    h("div", { class: "small il-phase-words" }, phaseWords[view.phase] || ""),
    rows.length ? h("ul", { class: "il-answers", id: "il-answers" }, rows) : null,
    countdown ? h("div", { class: "small il-countdown", id: "il-countdown" }, countdown) : null,
    a.dice
      ? h(
          "div",
          { class: "il-roll", id: "il-roll", dataset: { roll: a.roll } },
          `The dice show ${a.dice[0]} + ${a.dice[1]} = ${a.dice[0] + a.dice[1]}`,
          a.roll_changed_by ? `; ${a.roll_changed_by} turned the roll to ${a.roll}` : "",
        )
      : null,
  );
}

const ATTACK_LINE = /^Player \d+ attacks .+ with .+ to (control|neutralize|destroy)$/;

/** The last resolved attack in words, from the server's log and the last attack state seen. */
export function lastResult(view, memo) {
  const log = view.log || [];
  let start = -1;
  log.forEach((line, i) => {
    if (ATTACK_LINE.test(line)) start = i;
  });
  if (start < 0) return null;
  const lines = log.slice(start);
  const outcome = lines.find((l) => / fails$| takes control of | is neutralized | is destroyed$| calls off the attack$/.test(l));
  if (!outcome) return null;
  const dice = lines.find((l) => l.startsWith("the dice show"));
  const m = dice && dice.match(/^the dice show (\d+)\+(\d+)=(\d+); (-?\d+) or less was needed$/);
  const sameAttack = memo && lines[0].includes(` attacks ${memo.target} with ${memo.attacker} `);
  // Cards played between the dice and the outcome (they may have changed the roll).
  const after = dice ? lines.slice(lines.indexOf(dice) + 1, lines.indexOf(outcome)).filter((l) => / plays /.test(l)) : [];
  let why = "";
  if (sameAttack && memo.roll_changed_by && memo.roll !== null) why = `${memo.roll_changed_by} turned the roll to ${memo.roll}`;
  else if (m) {
    // A high need lost to an 11 or 12 says why, or the result would read as a contradiction.
    const high = Number(m[3]) >= 11 && Number(m[3]) <= Number(m[4]) ? " (11 or 12 always fails)" : "";
    why = `Rolled ${m[3]}, ${m[4]} or less was needed${high}${after.length ? `; then ${after.join("; ")}` : ""}`;
  }
  const result = outcome.startsWith("the attack") ? outcome.replace(/^the attack on .+ fails$/, "the attack fails") : outcome;
  return { head: lines[0], text: why ? `${why}: ${result}` : `${result[0].toUpperCase()}${result.slice(1)}` };
}
