// The user manual (UC 05): how to use Parley, and the rules of each game in brief.
// Prose only; the rules themselves are applied by the server.

import { fill, h } from "./dom.js";

const p = (...text) => h("p", {}, ...text);
const li = (...text) => h("li", {}, ...text);
const kbd = (k) => h("kbd", {}, k);

const SECTIONS = [
  {
    key: "start",
    title: "Getting started",
    body: () => [
      p("Parley runs games of negotiation in the browser. Everything you see comes from the server: the board, whose turn it is and the choices you have. If the page offers a choice, it is legal."),
      h("h3", {}, "Signing in"),
      p("Choose a username (2–32 letters, digits, “_”, “.” or “-”). Names are unique: if yours is taken, the page tells you and you pick another. You may add a password so you can sign in again from another browser; returning players type the same name and password."),
      h("h3", {}, "Creating a game"),
      h(
        "ul",
        {},
        li("Pick the game, the number of players and the game's options (for Diplomacy the map, for So Long Sucker the chips per player…)."),
        li("Give it a name and, if you like, a description other players see in the list."),
        li("Set the adjudication period: how long each turn lasts. When it runs out, anyone who has not decided gets the game's default (Diplomacy units hold)."),
        li("Choose the press: full (public, private and group chat), public only, or none."),
        li("A private game is listed to nobody; share its id and invite code."),
        li("“Start at once with bots” fills the empty seats with bots, so you can play right away."),
      ),
      p("The game's id is shown after creation. You are the host: you can add bots, start the game and close it."),
      h("h3", {}, "Joining"),
      p("Open games waiting for players are listed in the lobby; click “Join”. To join a particular game, type its id under “Join a game by id”, as a player or as a spectator. If no game has that id, you are told so and stay on the page. Spectators see the public board and the public press only."),
      h("h3", {}, "Starting"),
      p("When the seats are filled the host clicks “Start the game” (empty seats can be filled with bots at that moment). Seats — Diplomacy's powers, So Long Sucker's colours — are drawn at random."),
    ],
  },
  {
    key: "play",
    title: "During a game",
    body: () => [
      p("The top bar shows the game, the phase and the time left before the deadline. The dot beside it tells whether the live connection works."),
      h(
        "ul",
        {},
        li(h("strong", {}, "Chat"), ": the Public channel is read by everyone, spectators included. “+ New” starts a private conversation with one player or a group; only its members read it. A number on a channel counts messages you have not read."),
        li(h("strong", {}, "Players"), ": who plays which seat, who still has to act, and who is away."),
        li(h("strong", {}, "Log"), ": every action in order. Secret actions (Diplomacy orders) show as hidden until the phase is resolved."),
        li(h("strong", {}, "☰ menu"), ": propose a draw, leave the game, or (host) close it."),
      ),
      h("h3", {}, "Connection lost"),
      p("If the connection drops, a red notice says so and the page reconnects by itself, picking up everything that happened meanwhile. Nothing you wrote is lost, and you stay in the game."),
      h("h3", {}, "Missing deadlines and coming back"),
      p("A player who misses several deadlines goes into civil disorder: the game plays the default for them, and the host may hand the seat to a bot. When you return, click “I'm back” to take your seat again."),
      h("h3", {}, "Draws and leaving"),
      p("“Propose a draw” asks every surviving player. The game ends in a draw only if all accept; one refusal rejects it and the game goes on. “Leave the game” puts your seat in civil disorder. When the host leaves or closes the game, it ends for everyone. At the end, a screen shows the outcome and the ranking."),
    ],
  },
  {
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
  },
  {
    key: "sucker",
    title: "So Long Sucker",
    body: () => [
      h("h3", {}, "The rules in brief"),
      p("A game of coalitions by Hausner, Nash, Shapley and Shubik (1964), for 3 to 6 players. Each player owns a colour and starts with chips of it. The last player left in the game wins; alliances are necessary, and so is betrayal."),
      h(
        "ul",
        {},
        li(h("strong", {}, "Moving"), ": the player with the move plays one chip from their hand — their own colour or a prisoner — onto a pile, or starts a new pile."),
        li(h("strong", {}, "Capture"), ": if the chip played is the same colour as the chip just below it, the owner of that colour captures the pile: they kill one chip of it (to the dead box), keep the rest as prisoners, and move next."),
        li(h("strong", {}, "Who moves next"), ": otherwise, if some colour is missing from the pile, the mover gives the move to the owner of a missing colour (their choice if several are missing). If every colour is in the pile, the owner of the colour whose latest chip lies deepest moves."),
        li(h("strong", {}, "Prisoners"), " may be killed or given to another player at any time."),
        li(h("strong", {}, "No chips"), ": a player given the move without chips asks the others, in turn, to rescue them with prisoners. If nobody does, they are defeated, and the move goes back to whoever gave it."),
        li(h("strong", {}, "Bargains"), ": any agreement may be proposed and accepted — and broken. The game records them, but never enforces them."),
      ),
      h("h3", {}, "At the table"),
      h(
        "ul",
        {},
        li("The banner above the table says who must act and why (who has the move, who chooses the next player, who kills a captured chip, who is asked to rescue)."),
        li("When you have the move, click one of your chips below the piles, then a highlighted pile or “New pile”."),
        li("Choices of the next player, kills and rescues appear as buttons when they are yours to make."),
        li("Your prisoners can be killed or given away from “Your prisoners”."),
        li("Bargains live in the Chat tab: “Propose a bargain…” builds one (promises of chips, promises to pass the move, a note); open bargains show Accept, Reject or Withdraw."),
      ),
    ],
  },
];

export class ManualView {
  constructor(section) {
    this.name = "manual";
    this.section = section;
  }

  mount(app) {
    const toc = h("nav", { class: "manual-toc" }, h("h2", {}, "Manual"), h("ul", {}, SECTIONS.map((sec) => h("li", {}, h("a", { href: `#/manual/${sec.key}` }, sec.title)))), h("p", {}, h("a", { href: "#/" }, "← Back to the lobby")));
    const body = h("article", { class: "manual-body", id: "manual" });
    fill(body, SECTIONS.map((sec) => h("section", { id: `manual-${sec.key}` }, h("h2", {}, sec.title), sec.body())));
    app.append(h("div", { class: "manual" }, toc, body));
    if (this.section) {
      const target = document.getElementById(`manual-${this.section}`);
      if (target) target.scrollIntoView();
    }
  }
}
