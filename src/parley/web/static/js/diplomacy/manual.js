// The Diplomacy section of the manual: prose only; the rules are applied by the server.

import { h } from "../dom.js";

const p = (...text) => h("p", {}, ...text);
const li = (...text) => h("li", {}, ...text);
const kbd = (k) => h("kbd", {}, k);

export const manual = {
    key: "diplomacy",
    title: "Diplomacy",
    body: () => [
      h("h3", {}, "The rules in brief"),
      p("Seven great powers of 1901 Europe — Austria, England, France, Germany, Italy, Russia and Turkey — fight for the 34 supply centres (the dots on the map). A power that owns 18 centres wins. There is no luck: every battle is decided by support, and support is won by talking."),
      h(
        "ul",
        {},
        li(h("strong", {}, "Units"), ": armies move on land, fleets at sea and along coasts. One unit per province. Each supply centre you own supports one unit."),
        li(h("strong", {}, "Orders"), ": every power writes orders in secret; all are revealed and resolved at once. A unit may hold, move to a neighbouring province, support another unit's hold or move, or (a fleet at sea) convoy an army across the water."),
        li(h("strong", {}, "Strength"), ": a move has strength 1 plus its valid supports. The strongest move into a province wins; equal strengths bounce and nobody moves. A unit that is attacked loses its support order (support is cut), except by the unit it supports against."),
        li(h("strong", {}, "Dislodged units"), " must retreat to an empty neighbouring province in the retreat phase, or disband; one given no order is disbanded."),
        li(h("strong", {}, "The year"), ": Spring moves, Fall moves, then in Winter centres change hands and powers build new units in their home centres or disband units they can no longer support."),
      ),
      h("h3", {}, "Ordering on the map"),
      h(
        "ol",
        {},
        li("Click one of your units (its province glows). Provinces it may act on are highlighted."),
        li("By default you order a move: click the destination. For a support, click “Support” (or press ", kbd("s"), "), click the unit to support, then its destination — or the same unit again to support it holding. For a convoy, click “Convoy” (", kbd("c"), "), the army, then where it goes. “Hold” (", kbd("h"), ") holds."),
        li("To drop a selection, click the selected unit again (or press ", kbd("Esc"), "). To change an order, select the unit again; to delete it, click × in the order list."),
        li("When a click can mean several orders (a coast to choose, a move with or without convoy), a small menu asks which."),
        li("In the retreat phase, click the dislodged unit (drawn with a red ring) and its destination, or Disband. In Winter, click an open home centre to build there (and choose army or fleet), or click a unit to disband it; click again to undo."),
        li("Press “Submit orders”. Until every power has submitted you may change your orders and submit again. Units without an order hold."),
      ),
      p("The Orders tab lists every unit with a drop-down of its legal orders — the same choices as the map. You may also type orders in the usual notation, e.g. ", h("code", {}, "A PAR - BUR"), ", ", h("code", {}, "F NTH C A LON - NWY"), ", ", h("code", {}, "A MUN S A PAR - BUR"), ", ", h("code", {}, "F STP/SC B"), "; several at once separated by “;”."),
      h("h3", {}, "Results and history"),
      p("Once a phase is resolved, its orders are drawn on the map: a red cross marks an order that failed. The Results tab lists every order of every power with what happened and, for a failure, why (bounced, support cut, dislodged…). The arrows ◀ ▶ above the map step through earlier phases."),
    ],
  };
