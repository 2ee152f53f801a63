// The user manual (UC 05): how to use Parley, and the rules of each game in brief.
// Prose only; the rules themselves are applied by the server.

import { fill, h } from "./dom.js";
import { gameModule } from "./games.js";
import { gameTypes } from "./lobby.js";

const p = (...text) => h("p", {}, ...text);
const li = (...text) => h("li", {}, ...text);

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
];

// The general sections, then one per game whose web module has a manual section.
async function sections() {
  const found = [...SECTIONS];
  let types = [];
  try {
    types = (await gameTypes()).games || [];
  } catch {
    return found;
  }
  for (const type of types) {
    const mod = await gameModule(type.name);
    if (mod && mod.manual) found.push(mod.manual);
  }
  return found;
}

export class ManualView {
  constructor(section) {
    this.name = "manual";
    this.section = section;
  }

  async mount(app) {
    const all = await sections();
    const toc = h("nav", { class: "manual-toc", "aria-label": "Manual contents" }, h("h1", {}, "Manual"), h("ul", {}, all.map((sec) => h("li", {}, h("a", { href: `#/manual/${sec.key}` }, sec.title)))), h("p", {}, h("a", { href: "#/" }, "← Back to the lobby")));
    const body = h("article", { class: "manual-body", id: "manual" });
    fill(body, all.map((sec) => h("section", { id: `manual-${sec.key}` }, h("h2", {}, sec.title), sec.body())));
    app.append(h("div", { class: "manual" }, toc, body));
    if (this.section) {
      const target = document.getElementById(`manual-${this.section}`);
      if (target) target.scrollIntoView();
    }
  }
}
