// The Planet Control section of the manual: prose only; the rules are applied by the server.

import { h } from "../dom.js";

const p = (...text) => h("p", {}, ...text);
const li = (...text) => h("li", {}, ...text);

export const manual = {
  key: "planets",
  title: "Planet Control",
  body: () => [
    h("h3", {}, "The rules in brief"),
    p("A small galaxy built around the Twilight Imperium control rules, for 3 to 6 players. Expand from your home system, invade other players' planets, and score public objectives; the first to the target wins, or the most points after the last round."),
    h(
      "ul",
      {},
      li(h("strong", {}, "A round"), " (full rules): each player picks strategy cards, then takes turns — a tactical action, a strategic action with their card, or passing once their cards are used — and the status phase hands out command tokens."),
      li(h("strong", {}, "A turn"), ": activate a system with a command token (move ships in, fight, invade, explore, produce), or pass for the round."),
      li(h("strong", {}, "Invasion"), " in five steps: bombardment, commit ground forces, space cannon defence, ground combat, establish control."),
      li(h("strong", {}, "Control"), ": a planet you gain comes with its card exhausted; a planet nobody held before is explored; a planet you leave empty stays yours under a control token until another player lands there."),
      li(h("strong", {}, "Planet cards"), ": exhaust readied planets for resources to produce units; all are readied in the status phase."),
    ),
    h("h3", {}, "At the table"),
    h(
      "ul",
      {},
      li("Highlighted systems can be activated: click one. The steps after that (moves, hits, commits, explorations, production) appear as buttons beside the map, straight from the server's options."),
      li("Planets are coloured by their controller; a small square marks a control token; dimmed planets are exhausted. Command tokens sit at the foot of each system."),
      li("Each player's planet cards show readied or exhausted, with the resources and influence they can still spend."),
      li("The log shows each invasion step with its dice; the last exploration card drawn is shown to everyone."),
      li("Under the full rules (the default), the strategy cards sit below the map: click a card to take it in the strategy phase. Strategic actions and secondaries are buttons with the card's text; each player's panel shows their tactic, fleet and strategy pools. Moving a fleet, choose where cargo boards and how many fighters, infantry and mechs go aboard."),
    ),
  ],
};
