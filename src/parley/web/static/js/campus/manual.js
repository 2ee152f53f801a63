// The Campus Conquest section of the manual: prose only; the rules are applied by the server.

import { h } from "../dom.js";

const p = (...text) => h("p", {}, ...text);
const li = (...text) => h("li", {}, ...text);

export const manual = {
  key: "campus",
  title: "Campus Conquest",
  body: () => [
    h("h3", {}, "The rules in brief"),
    p("Two to six colleges fight over a university campus. Each starts on a landmark with one unit. The player who takes the last sector of the last opponent wins; if the round limit comes first, the most sectors win."),
    h(
      "ul",
      {},
      li(h("strong", {}, "New units"), ": at the start of your turn, a level-1 unit appears on every landmark you hold that has no unit."),
      li(h("strong", {}, "Two steps"), ": move one unit two sectors, or two units one sector each. Stepping onto your own unit swaps the two; onto unowned ground captures it and your turn goes on."),
      li(h("strong", {}, "Enemy sectors"), ": an empty one is captured for free; one with a unit means combat. Either ends your turn."),
      li(h("strong", {}, "Combat"), ": each side rolls 1 to (4 + its level) and adds its bonus (attack for the attacker, defence for the defender). The attacker must roll strictly higher; the loser's unit is destroyed."),
      li(h("strong", {}, "Levels"), ": a unit that captured a sector during your turn rises one level when the turn ends (up to 5)."),
      li(h("strong", {}, "Landmarks"), ": each gives its holder +2 attack or +2 defence (the star's letter says which)."),
      li(h("strong", {}, "The Pro-Vice-Chancellor"), " hides on a sector nobody can see. Walk into it and it is captured: every player then secretly picks a number from 0 to 100; the closest to two thirds of the average wins. The capturer and the winner each get +2 attack and defence (+4 if they are the same player). It then hides somewhere new; after more than five full rounds uncaught, it is revealed."),
    ),
    h("h3", {}, "On the map"),
    h(
      "ul",
      {},
      li("Sectors take their owner's colour and stripe pattern; unowned ground is pale. A disc is a unit, with its level inside."),
      li("On your turn, click one of your units, then a highlighted sector. “Pass” ends your turn at any time. Every step is also listed under “All steps”."),
      li("When the Pro-Vice-Chancellor is captured, a dialog asks every player for their pick at once."),
      li("“What happened” explains each capture and combat in words, with the dice and bonuses."),
    ),
  ],
};
