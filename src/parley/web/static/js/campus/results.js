// The last combat (`last_combat`, public, kept until the next one): each side's unit, its
// die and roll, its bonus and total, and who won. Every number is the server's.

import { h } from "../dom.js";

/** Who won, and "the tie" only when the totals were equal (a tie goes to the defender). */
function resultWords(fight) {
  if (fight.result === "attacker_wins") return "The attacker wins";
  if (fight.result !== "defender_wins") return fight.result;
  return fight.attacker.total === fight.defender.total ? "The defender wins the tie" : "The defender wins";
}

function side(role, f, who, sectorName) {
  return h(
    "div",
    { class: "cc-fighter", dataset: { role, seat: f.seat, total: f.total } },
    h("div", { class: "cc-fighter-who" }, h("strong", {}, who(f.seat)), ` ${role === "attacker" ? "from" : "in"} ${sectorName(f.sector)}`),
    h(
      "div",
      { class: "cc-fighter-roll" },
      h("span", { class: "die", title: `a ${f.die}-sided die` }, String(f.roll)),
      h("span", { class: "small muted" }, `d${f.die} · level ${f.level}`),
      h("span", {}, `+${f.bonus} = `, h("strong", { class: "cc-total" }, String(f.total))),
    ),
  );
}

/** The box beside the map; `who(seat)`, `name(seat)` (the seat's own name) and
 * `sectorName(code)` are the board's words. */
export function lastCombatBox(fight, who, name, sectorName) {
  return h(
    "section",
    { class: "cc-last-combat", id: "cc-last-combat", "aria-label": "last combat", dataset: { result: fight.result } },
    h("div", { class: "cc-last-title" }, "Last combat"),
    side("attacker", fight.attacker, who, sectorName),
    h("div", { class: "small muted cc-against" }, "against"),
    side("defender", fight.defender, who, sectorName),
    h("div", { class: "cc-last-result", id: "cc-last-result" }, `${resultWords(fight)}: ${name(fight.destroyed)}'s unit is destroyed`),
  );
}
