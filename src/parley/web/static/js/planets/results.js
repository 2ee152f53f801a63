// The last combat (`last_combat`, public, kept until the next combat begins): space or
// ground combat round by round, a bombardment or a space cannon volley, each side's dice and
// hits and the result. The dice and hit counts are the server's; none is judged here.

import { h, titleCase } from "../dom.js";

const KIND = { space: "Space combat", ground: "Ground combat", bombardment: "Bombardment", space_cannon: "Space cannon", space_cannon_offense: "Space cannon offense" };
// One volley each side at most, without rounds: the attacker fires (and the defender, if
// it had dice).
const VOLLEYS = ["bombardment", "space_cannon", "space_cannon_offense"];

function dice(rolls) {
  return rolls.length ? h("span", { class: "pc-dice" }, rolls.map((d) => h("span", { class: "die" }, String(d)))) : h("span", { class: "muted small" }, "no dice");
}

/** The anti-fighter barrage before the first round: each side's dice and fighters hit. */
function barrageBox(fight, sides, colour) {
  const b = fight.barrage;
  return h(
    "div",
    { class: "pc-barrage", id: "pc-barrage" },
    h("div", { class: "small muted" }, "Anti-fighter barrage"),
    sides.map((seat, k) =>
      b.rolls[k].length || b.hits[k]
        ? h("div", { class: "pc-round-side", dataset: { seat, hits: b.hits[k] } }, h("span", { class: "pc-round-who" }, titleCase(colour(seat))), dice(b.rolls[k]), h("span", { class: "pc-hits" }, `${b.hits[k]} ${b.hits[k] === 1 ? "hit" : "hits"}`))
        : null,
    ),
  );
}

/** The box by the galaxy. `colour(seat)` is the seat's colour name, `paint(name)` its CSS
 * colour. */
export function lastCombatBox(fight, colour, paint) {
  const volley = VOLLEYS.includes(fight.kind);
  const sides = [fight.attacker, fight.defender];
  const result = fight.result === null || fight.result === undefined
    ? "Under way"
    : fight.result === "fired"
      ? "Fired"
      : fight.result === "both_destroyed"
        ? "Both sides destroyed"
        : `${titleCase(colour(fight.result === "attacker_wins" ? fight.attacker : fight.defender))} wins`;
  const who = (seat) => h("span", { class: "pc-combat-side" }, h("span", { class: "swatch", style: { background: paint(colour(seat)) } }), titleCase(colour(seat)));
  return h(
    "section",
    { class: "pc-last-combat", id: "pc-last-combat", "aria-label": "last combat", dataset: { kind: fight.kind, result: fight.result || "" } },
    h("div", { class: "pc-last-title" }, `Last combat: ${KIND[fight.kind] || fight.kind} at ${fight.where}`),
    h("div", { class: "small" }, who(fight.attacker), fight.kind.startsWith("space_cannon") ? " fires on " : fight.kind === "bombardment" ? " bombards " : " against ", who(fight.defender)),
    // A barrage nobody could fire (no such units on either side) is not drawn.
    fight.barrage && fight.barrage.rolls.some((r) => r.length) ? barrageBox(fight, sides, colour) : null,
    h(
      "ol",
      { class: "pc-rounds", id: "pc-rounds", tabindex: 0, "aria-label": "the rounds of the combat" },
      fight.rounds.map((r, i) =>
        h(
          "li",
          { dataset: { round: i + 1 } },
          volley ? null : h("div", { class: "small muted" }, `Round ${i + 1}`),
          sides.map((seat, k) =>
            volley && k === 1 && !r.rolls[1].length
              ? null
              : h("div", { class: "pc-round-side", dataset: { seat, hits: r.hits[k] } }, h("span", { class: "pc-round-who" }, titleCase(colour(seat))), dice(r.rolls[k]), h("span", { class: "pc-hits" }, `${r.hits[k]} ${r.hits[k] === 1 ? "hit" : "hits"}`)),
          ),
        ),
      ),
    ),
    h("div", { class: "pc-last-result", id: "pc-last-result" }, result),
  );
}
