// The Planet Control board: the hex galaxy (planets coloured by controller, control
// tokens, units by type and count, command tokens), each player's planet cards readied or
// exhausted with spendable totals, the step in progress with its dice, and the last
// exploration card. Every clickable choice is a leaf of the options tree the server sent.

import { fill, h, refill, s, titleCase } from "../dom.js";
import { leaves } from "../options.js";
import { Zoom } from "../zoom.js";
import { centre, corners, planetSpot, viewBox } from "./galaxy.js";
import { lastCombatBox } from "./results.js";
import { abilityButtons, produceForm, sheetLine, strategyPanel, tokensForm } from "./round.js";

const COLOURS = {
  red: "#d8413a",
  blue: "#2f6ad0",
  green: "#2f9a52",
  yellow: "#e0b52b",
  purple: "#8a4fc2",
  orange: "#ef8a2a",
  black: "#333",
  white: "#bbb",
};
const SHORT = { carrier: "CV", cruiser: "CA", destroyer: "DD", dreadnought: "DN", infantry: "inf", mech: "mech", pds: "PDS", dock: "dock" };
// On planets, where two share a hex: infantry, mechs, PDS, space docks in a few letters.
const TINY = { infantry: "i", mech: "m", pds: "P", dock: "D" };
const KIND_FILL = { central: "#2b2540", home: "#1e2a3a", planets: "#14202e", empty: "#0f1622", asteroids: "#3a3128" };
const STEP_OF = { bombard: 1, commit: 2, cannon: 3, ground: 4, control: 5, destroyed: 5 };

let cssAdded = false;
function addCss() {
  if (cssAdded || document.querySelector('link[data-game="planets"]')) return;
  cssAdded = true;
  document.head.append(h("link", { rel: "stylesheet", href: "/static/css/planets.css", dataset: { game: "planets" } }));
}

let measurer = null;

/**
 * A map label that never overlaps its neighbours: one wider than its `room` (map units) is
 * drawn narrower to fit. Measured once with the page's font, before it is drawn, so a frame
 * that changes nothing draws the same markup.
 */
function fitted(attrs, text, room, font) {
  measurer = measurer || document.createElement("canvas").getContext("2d");
  measurer.font = `${font} ${getComputedStyle(document.body).fontFamily}`;
  const wide = measurer.measureText(text).width > room;
  return s("text", { ...attrs, textLength: wide ? room : null, lengthAdjust: wide ? "spacingAndGlyphs" : null, dataset: { room } }, text);
}

function unitsText(units) {
  return Object.entries(units || {})
    .map(([k, n]) => `${n} ${SHORT[k] || k}`)
    .join(" ");
}

export class PlanetsBoard {
  constructor(ctx) {
    this.ctx = ctx;
    this.busy = false;
    // What a player has set in the forms (token split, production choice) between frames.
    this.forms = { redraw: () => this.drawControls() };
    addCss();
  }

  // --- renderer interface ------------------------------------------------------------

  tabs() {
    return [];
  }

  colourOf(seat) {
    const v = this.view();
    const p = v && v.players ? v.players[seat] : null;
    return p ? p.colour : "";
  }

  seatColour(seat) {
    const seats = this.ctx.summary.seats || [];
    const name = seats[seat] ? String(seats[seat].name).toLowerCase() : this.colourOf(seat);
    return COLOURS[name] || "#999";
  }

  headline() {
    const v = this.view();
    if (!v) return { title: "Planet Control" };
    if (v.over) return { title: "Planet Control · game over" };
    return { title: `Planet Control · round ${v.round} of ${v.rounds} · ${titleCase(this.colourOf(v.to_act))} to act` };
  }

  mountBoard(el) {
    this.el = el;
    this.status = h("div", { class: "pc-status", id: "pc-status", role: "status" });
    this.map = h("div", { class: "pc-map", id: "pc-map" });
    this.zoom = new Zoom(this.map, "the galaxy");
    this.controls = h("div", { class: "pc-controls", id: "pc-controls" });
    this.explored = h("div", { class: "pc-explored", id: "pc-explored", "aria-live": "polite" });
    this.steps = h("div", { class: "pc-steps", id: "pc-steps" });
    this.combat = h("div", { class: "pc-combat" });
    this.round = h("div", { class: "pc-round", id: "pc-round" });
    this.players = h("div", { class: "pc-players", id: "pc-players" });
    this.objectives = h("div", { class: "pc-objectives", id: "pc-objectives" });
    el.append(
      h(
        "div",
        { class: "pc-table" },
        this.status,
        h("div", { class: "pc-main" }, h("div", { class: "pc-map-wrap" }, this.zoom.bar, this.map), h("div", { class: "pc-side" }, this.controls, this.combat, this.explored, this.steps)),
        this.round,
        this.players,
        this.objectives,
      ),
    );
  }

  update() {
    if (!this.el || !this.view()) return;
    this.drawStatus();
    this.drawMap();
    this.drawControls();
    this.drawExplored();
    this.drawSteps();
    const fight = this.view().last_combat;
    fill(this.combat, fight ? lastCombatBox(fight, (s) => this.colourOf(s), (c) => COLOURS[c] || "#999") : null);
    this.drawRound();
    this.drawPlayers();
    this.drawObjectives();
  }

  // --- data --------------------------------------------------------------------------

  view() {
    return this.ctx.state ? this.ctx.state.observation.view : null;
  }

  tree() {
    return this.ctx.state && this.ctx.state.can_act ? this.ctx.state.options : null;
  }

  /**
   * The fleets that may move now, by source system: the options tree's move groups ("from
   * SYSTEM"), each with one node per ship type whose leaves are keyed "SHIPS INFANTRY MECH".
   */
  fleets() {
    const out = new Map();
    for (const g of (this.tree() || {}).children || []) {
      if (!g.key.startsWith("from ") || !(g.children || []).every((k) => k.children)) continue;
      out.set(g.key.slice(5), g);
    }
    return out;
  }

  chooseFleet(system) {
    this.fleetFrom = this.fleetFrom === system ? null : system;
    this.fleet = null;
    this.update();
  }

  async act(text) {
    if (this.busy) return;
    this.busy = true;
    try {
      await this.ctx.act({ action: text });
    } catch {
      // the game view showed the reason
    } finally {
      this.busy = false;
    }
  }

  // --- drawing -----------------------------------------------------------------------

  drawStatus() {
    const v = this.view();
    const me = v.you;
    const who = (seat) => (seat === me ? "You" : titleCase(this.colourOf(seat)));
    let main;
    if (v.over) {
      main = `Game over: ${v.reason}`;
    } else {
      const hit = v.hits && v.hits[0];
      main = hit
        ? `${who(hit.seat)} must assign ${hit.count} hit${hit.count > 1 ? "s" : ""} at ${hit.where}`
        : `${who(v.to_act)} to act: ${v.step}`;
      if (v.active) main += ` · active system ${v.active}`;
    }
    // The full rules' announcements that bind what comes next: a retreat, ships over supply.
    const notes = [];
    if (v.retreat && !v.over) notes.push(`${who(v.retreat.seat)} announced a retreat to ${v.retreat.system}, carried out after this round's hits`);
    for (const x of v.fleet_excess || []) notes.push(`${who(x.seat)} must remove ships over the fleet supply at ${x.system}`);
    fill(
      this.status,
      h("h2", { class: ["pc-headline", v.to_act === me && !v.over && "my-turn"] }, !v.over ? h("span", { class: "swatch big", style: { background: COLOURS[this.colourOf(v.to_act)] } }) : null, main),
      notes.map((n) => h("div", { class: "pc-note-line small", dataset: { note: "announced" } }, n)),
      h("div", { class: "muted small" }, `Round ${v.round} of ${v.rounds} · ${v.target} points win · galaxy ${v.galaxy}${v.rules === "full" ? " · full rules" : ""}`),
    );
  }

  drawMap() {
    const v = this.view();
    const planets = new Map(v.planets.map((p) => [p.name, p]));
    const activations = new Map(
      leaves(this.tree())
        .filter((l) => l.action.startsWith("activate "))
        .map((l) => [l.action.split(" ")[1], l.action]),
    );
    const fleets = this.fleets();
    if (this.fleetFrom && !fleets.has(this.fleetFrom)) this.fleetFrom = null;
    // The custodians stand on the central system's planet until someone pays them off.
    const central = v.systems.find((x) => x.kind === "central");
    const custodians = v.custodians && v.custodians.on && central && central.planets ? central.planets[0] : null;
    const hexes = v.systems.map((sys) => {
      const { x, y } = centre(sys.q, sys.r);
      const action = activations.get(sys.id);
      const source = fleets.has(sys.id);
      const parts = [
        s("polygon", { points: corners(x, y), class: ["pc-hex", `kind-${sys.kind}`, sys.id === v.active && "active", action && "target"], fill: KIND_FILL[sys.kind] || "#111" }),
        s("text", { x, y: y - 38, class: "pc-id" }, sys.id),
      ];
      if (sys.home !== undefined && sys.home !== null) {
        // Along the hex's own edge, so it crosses neither the system's number nor its labels.
        parts.push(s("polygon", { points: corners(x, y, 57.5), class: "pc-home-ring", fill: "none", stroke: COLOURS[this.colourOf(sys.home)] }));
      }
      if (sys.kind === "asteroids") parts.push(s("text", { x, y: y + 4, class: "pc-note" }, "asteroids"));
      (sys.planets || []).forEach((name, k) => {
        const p = planets.get(name);
        const spot = planetSpot(x, y, k, sys.planets.length);
        // The width a planet's labels may take: half the hex when two planets share it, kept
        // inside the hex's slanting sides down to the ground forces' line.
        const room = sys.planets.length > 1 ? 32 : 96;
        const owner = p.controller === null ? null : this.colourOf(p.controller);
        parts.push(
          s("circle", {
            "aria-label": `${name}${p.units ? `: ${(p.units || []).map((u) => `${u.colour} ${unitsText(u.units)}`).join("; ")}` : ""}`,
            cx: spot.x,
            cy: spot.y,
            r: p.legendary ? 15 : 12,
            class: ["pc-planet", p.exhausted && "exhausted", p.legendary && "legendary"],
            fill: owner ? COLOURS[owner] : "#5d6672",
            dataset: { planet: name, controller: owner || "none", exhausted: String(p.exhausted) },
          }, s("title", {}, `${name}: ${p.resources} resources, ${p.influence} influence${owner ? `, ${owner}` : ""}${p.exhausted ? " (exhausted)" : ""}`)),
          fitted({ x: spot.x, y: spot.y + 25, class: "pc-planet-name" }, name.length > 10 ? `${name.slice(0, 9)}…` : name, room, "9px"),
          s("text", { x: spot.x, y: spot.y + 4, class: "pc-values" }, `${p.resources}/${p.influence}`),
        );
        if (custodians === name) {
          parts.push(s("g", { class: "pc-custodians", dataset: { custodians: name } }, s("title", {}, "Custodians: 6 influence removes them and gives 1 point"), s("rect", { x: spot.x - 52, y: spot.y - 6, width: 36, height: 11, rx: 3 }), fitted({ x: spot.x - 34, y: spot.y + 2 }, "custodians", 33, "700 7px")));
        }
        if (p.control_token) {
          parts.push(s("rect", { x: spot.x + 8, y: spot.y - 16, width: 8, height: 8, class: "pc-control-token", fill: COLOURS[owner], dataset: { token: name } }));
        }
        const ground = (p.units || [])
          .map((u) => Object.entries(u.units).map(([k, n]) => `${n}${TINY[k] || k}`).join(" "))
          .join(" | ");
        // The lowest line, where the hex narrows most: narrower still when two planets share it.
        if (ground) parts.push(fitted({ x: spot.x, y: spot.y + 35, class: "pc-ground" }, ground, Math.min(room, 28), "8px"));
      });
      (sys.units || []).forEach((u, k) => {
        parts.push(fitted({ x, y: y - 24 + k * 11, class: "pc-ships", fill: COLOURS[u.colour] }, unitsText(u.units), 74, "700 9px"));
      });
      (sys.tokens || []).forEach((seat, k) => {
        parts.push(s("rect", { x: x - 30 + k * 12, y: y + 42, width: 10, height: 7, class: "pc-command-token", fill: COLOURS[this.colourOf(seat)] }));
      });
      return s(
        "g",
        {
          class: ["pc-system", (action || source) && "clickable", source && "source", sys.id === this.fleetFrom && "chosen"],
          dataset: { system: sys.id },
          onClick: () => (action ? this.act(action) : source ? this.chooseFleet(sys.id) : null),
          role: action || source ? "button" : null,
        },
        // Named by a <title> rather than aria-label, which would differ from the drawn text.
        [s("title", {}, action ? action : source ? `move a fleet from ${sys.id}` : `system ${sys.id}`), ...parts],
      );
    });
    refill(this.map, s("svg", { viewBox: viewBox(v.systems), class: "pc-galaxy", id: "pc-galaxy", role: "img", "aria-label": "the galaxy" }, hexes));

  }

  drawControls() {
    const v = this.view();
    const tree = this.tree();
    // Over, there is nothing to choose: no empty card is left standing beside the map.
    this.controls.hidden = Boolean(v.over && !tree);
    if (!tree) {
      refill(this.controls, v.over ? null : h("p", { class: "muted" }, `Waiting for ${titleCase(this.colourOf(v.to_act))}.`));
      return;
    }
    const fleets = this.fleets();
    const groups = (tree.children || []).filter((g) => g.key !== "activate" && !fleets.has(g.key.slice(5)));
    const hint = (tree.children || []).some((g) => g.key === "activate") ? h("p", { class: "small" }, "Click a highlighted system on the map to activate it, or:") : null;
    const act = (action) => this.act(action);
    const buttons = (g) =>
      h("div", { class: "pc-buttons" }, leaves(g).map((l) => h("button", { type: "button", class: ["option", (l.action === "pass" || l.action === "done") && "quiet"], dataset: { action: l.action }, onClick: () => this.act(l.action) }, this.leafWords(l.action))));
    // Groups whose leaves are many, or whose card text matters, get forms of their own.
    const body = (g) => {
      if (g.key === "strategic" || g.key === "secondary") return h("div", { class: "pc-abilities" }, abilityButtons(v, leaves(g), act));
      if (g.key === "tokens") return tokensForm(leaves(g), act, this.forms);
      if (g.key === "produce") {
        const info = h("p", { class: "small", id: "pc-production" }, `Gathered ${v.pool} resource${v.pool === 1 ? "" : "s"} · produced ${v.produced} of ${v.production}`);
        return [info, produceForm(leaves(g), act, this.forms), this.folded("pc-all-produce", `Every choice as notation (${leaves(g).length})`, buttons(g))];
      }
      return buttons(g);
    };
    refill(
      this.controls,
      h("h3", {}, tree.label),
      hint,
      fleets.size ? this.fleetForm(fleets) : null,
      groups.map((g) => h("div", { class: "pc-group", dataset: { group: g.key } }, h("div", { class: "pc-group-label" }, this.groupLabel(g, tree)), body(g))),
    );
  }

  /** A folded list that stays open, once opened, when the controls are drawn again. */
  folded(id, summary, ...content) {
    const open = Boolean(this.forms[id]);
    return h("details", { class: "pc-all-moves", id, open, onToggle: (e) => { this.forms[id] = e.target.open; } }, h("summary", {}, summary), ...content);
  }

  /** A group's title; planets exhausted to buy tokens or pay the custodians give influence. */
  groupLabel(g, tree) {
    const v = this.view();
    const forInfluence = v.round_step === "buy" || (tree.children || []).some((x) => x.key === "toll");
    return g.key === "pay" && forInfluence ? `Exhaust planets for influence (gathered ${v.influence || 0})` : g.label;
  }

  /** A leaf's notation in words where that reads better on a button ("stay" and the like). */
  leafWords(action) {
    if (action === "stay") return "Stay and fight";
    const m = /^(retreat to|fire at|pick|remove|speaker|grant|lift|seal|place (\S+) on) (.+)$/.exec(action);
    if (!m) return action;
    if (m[1] === "speaker") return `Give the speaker token to ${titleCase(m[3])}`;
    if (m[1] === "grant") return `Let ${titleCase(m[3])} follow without a token`;
    if (m[1] === "lift") return `Take your token off ${m[3]}`;
    if (m[1] === "seal") return `Name ${m[3]}`;
    if (m[1] === "retreat to") return `Retreat to ${m[3]}`;
    if (m[1] === "fire at") return `Fire at ${titleCase(m[3])}`;
    if (m[1] === "pick") return `Pick ${titleCase(m[3])}`;
    if (m[1] === "remove") return `Remove a ${m[3]}`;
    return `${m[2] === "pds" ? "PDS" : "Space dock"} on ${m[3]}`;
  }

  /**
   * Moving a fleet: the system (on the map, or its button here), then the ship type and how
   * many, then what boards them: the compact game's leaves are keyed "SHIPS INFANTRY MECH",
   * the full rules' "SHIPS INFANTRY MECH FIGHTERS PLACE" (PLACE: where the cargo boards, "-"
   * for none). The button sends the one offered move with exactly the counts chosen. Every
   * move is also listed as notation, folded away.
   */
  fleetForm(fleets) {
    const v = this.view();
    const from = this.fleetFrom;
    const parts = [
      h("p", { class: "small", id: "pc-fleet-hint" }, from ? `Fleet from ${from} into ${v.active}:` : `Move ships into ${v.active}: click a highlighted system with your ships, or choose it here.`),
      h("div", { class: "pc-sources", role: "group", "aria-label": "systems with ships that can move" },
        [...fleets.keys()].map((sid) => h("button", { type: "button", class: ["small", sid === from && "primary"], dataset: { source: sid }, "aria-pressed": String(sid === from), onClick: () => this.chooseFleet(sid) }, `From ${sid}`))),
    ];
    // Under the full rules: what is aboard in the active system against the capacity there.
    const room = (v.space_capacity || []).find((c) => c.system === v.active && c.seat === v.you);
    if (room) parts.push(h("p", { class: "small", id: "pc-capacity", dataset: { cargo: room.cargo - room.sheltered, capacity: room.capacity } }, `In ${v.active} now: ${room.cargo - room.sheltered} fighters and ground forces aboard, capacity ${room.capacity}`));
    if (from) parts.push(this.fleetPicker(from, fleets.get(from).children));
    const every = [...fleets.values()].flatMap((g) => leaves(g));
    parts.push(
      this.folded("pc-all-moves", `Every move as notation (${every.length})`,
        h("div", { class: "pc-buttons" }, every.map((l) => h("button", { type: "button", class: "option", dataset: { action: l.action }, onClick: () => this.act(l.action) }, l.label)))),
    );
    return h("div", { class: "pc-group pc-fleets", dataset: { group: "fleets" } }, parts);
  }

  /** The counts of one source system's fleet, each list holding only what is offered. */
  fleetPicker(from, kinds) {
    const empty = { ships: 1, place: "-", infantry: 0, mech: 0, fighter: 0 };
    const pick = this.fleet && this.fleet.from === from ? this.fleet : { from, kind: kinds[0].key, ...empty };
    const kindNode = kinds.find((k) => k.key === pick.kind) || kinds[0];
    // A leaf's key: counts of ships, infantry, mechs (and fighters), then the boarding place.
    const all = kindNode.children.map((leaf) => {
      const words = leaf.key.split(" ");
      const full = words.length >= 5;
      return { leaf, ships: Number(words[0]), infantry: Number(words[1]), mech: Number(words[2]), fighter: full ? Number(words[3]) : 0, place: full ? words.slice(4).join(" ") : "-" };
    });
    const full = kindNode.children.some((leaf) => leaf.key.split(" ").length >= 5);
    const within = (list, key, value) => (list.some((x) => x[key] === value) ? value : list.map((x) => x[key]).sort((a, b) => (a < b ? -1 : 1))[0]);
    const chosen = { from, kind: kindNode.key };
    let list = all;
    for (const key of ["ships", "place", "infantry", "mech", "fighter"]) {
      chosen[key] = within(list, key, pick[key]);
      list = list.filter((x) => x[key] === chosen[key]);
    }
    const move = list[0];
    const set = (change) => {
      this.fleet = { ...chosen, ...change };
      this.drawControls();
    };
    const values = (rows, key) => [...new Set(rows.map((x) => x[key]))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const select = (id, label, options, value, key, words = String) =>
      h("label", { class: "pc-count", for: id }, label,
        h("select", { id, onChange: (e) => set({ [key]: typeof value === "number" ? Number(e.target.value) : e.target.value }) }, options.map((n) => h("option", { value: n, selected: n === value }, words(n)))));
    const withShips = all.filter((x) => x.ships === chosen.ships);
    const atPlace = withShips.filter((x) => x.place === chosen.place);
    const withInf = atPlace.filter((x) => x.infantry === chosen.infantry);
    const withMech = withInf.filter((x) => x.mech === chosen.mech);
    const placeWords = (p) => (p === "-" ? "nothing aboard" : /^\d{3,4}$/.test(p) ? `space of ${p}` : p);
    const places = values(withShips, "place");
    return h("div", { class: "pc-fleet", id: "pc-fleet", dataset: { from } },
      h("label", { class: "pc-count", for: "pc-fleet-kind" }, "Ships",
        h("select", { id: "pc-fleet-kind", onChange: (e) => set({ kind: e.target.value, ...empty }) }, kinds.map((k) => h("option", { value: k.key, selected: k === kindNode }, k.label)))),
      select("pc-fleet-ships", "How many", values(all, "ships"), chosen.ships, "ships"),
      full && places.length > 1 ? select("pc-fleet-place", "Cargo boards at", places, chosen.place, "place", placeWords) : null,
      values(atPlace, "infantry").length > 1 ? select("pc-fleet-infantry", "Infantry aboard", values(atPlace, "infantry"), chosen.infantry, "infantry") : null,
      values(withInf, "mech").length > 1 ? select("pc-fleet-mech", "Mechs aboard", values(withInf, "mech"), chosen.mech, "mech") : null,
      values(withMech, "fighter").length > 1 ? select("pc-fleet-fighter", "Fighters aboard", values(withMech, "fighter"), chosen.fighter, "fighter") : null,
      move ? h("button", { type: "button", class: "primary", id: "pc-fleet-go", dataset: { move: move.leaf.action }, onClick: () => this.act(move.leaf.action) }, `Move: ${move.leaf.label}`) : null,
    );
  }

  /** The fuller round's strategy panel (nothing under the compact rules). */
  drawRound() {
    const v = this.view();
    // On a phone the cards' texts start folded once the picks are over (the ability buttons
    // repeat the text that matters); a button shows or hides them.
    if (this.cardTexts === undefined) this.cardTexts = window.innerWidth > 760;
    const toggle = () => {
      this.cardTexts = !this.cardTexts;
      this.drawRound();
    };
    refill(this.round, v.rules === "full" ? strategyPanel(v, this.tree(), { act: (a) => this.act(a), colourOf: (seat) => this.colourOf(seat), paint: (c) => COLOURS[c] || "#999", texts: this.cardTexts, toggle }) : null);
  }

  drawExplored() {
    const v = this.view();
    const last = [...(v.events || [])].reverse().find((e) => e.kind === "explore");
    if (!last) {
      fill(this.explored);
      return;
    }
    fill(
      this.explored,
      h(
        "div",
        { class: "pc-card", id: "pc-explore-card", dataset: { planet: last.planet, card: last.card || "" } },
        h("div", { class: "pc-card-title" }, `Exploration · ${last.deck}`),
        h("strong", {}, last.card || "nothing found"),
        h("div", {}, last.effect || ""),
        h("div", { class: "muted small" }, `${titleCase(this.colourOf(last.seat))} explored ${last.planet}`),
      ),
    );
  }

  drawSteps() {
    const v = this.view();
    const shown = (v.events || []).slice(-10);
    fill(
      this.steps,
      h("h3", {}, "Lately"),
      h(
        "ol",
        { class: "pc-log", id: "pc-log", tabindex: 0, "aria-label": "the latest events", dataset: { last: v.events.length ? v.events[v.events.length - 1].n : 0 } },
        shown.map((e) =>
          h(
            "li",
            { class: ["pc-event", `ev-${e.kind}`], dataset: { kind: e.kind } },
            STEP_OF[e.kind] && e.step ? h("span", { class: "pc-step-no" }, `invasion ${e.step}`) : null,
            e.text,
          ),
        ),
      ),
    );
  }

  drawPlayers() {
    const v = this.view();
    const planets = new Map(v.planets.map((p) => [p.name, p]));
    const seats = this.ctx.summary.seats || [];
    fill(
      this.players,
      v.players.map((p) => {
        const seat = seats[p.seat];
        return h(
          "div",
          { class: ["pc-player", p.seat === v.you && "me", p.seat === v.to_act && !v.over && "to-act"], dataset: { colour: p.colour }, style: { "--seat": COLOURS[p.colour] } },
          h("div", { class: "pc-player-head" }, h("span", { class: "swatch", style: { background: COLOURS[p.colour] } }), h("strong", {}, titleCase(p.colour)), h("span", { class: "muted" }, seat && seat.player ? seat.player : ""), p.seat === v.you ? h("span", { class: "badge" }, "you") : null),
          h("div", { class: "small" }, `${p.points} point${p.points === 1 ? "" : "s"}${v.rules === "full" ? "" : ` · ${p.tactics} command token${p.tactics === 1 ? "" : "s"}`}${p.passed ? " · passed" : ""} · ${p.trade_goods} trade goods${p.fragments.length ? ` · fragments: ${p.fragments.join(", ")}` : ""}`),
          h("div", { class: "pc-totals", dataset: { resources: p.ready_resources, influence: p.ready_influence } }, `Spendable: ${p.ready_resources} resources · ${p.ready_influence} influence`),
          v.rules === "full" ? sheetLine(v, p.seat) : null,
          h(
            "div",
            { class: "pc-cards" },
            p.planets.map((name) => {
              const planet = planets.get(name);
              return h(
                "div",
                { class: ["pc-planet-card", planet.exhausted ? "exhausted" : "readied"], dataset: { card: name, state: planet.exhausted ? "exhausted" : "readied" }, title: planet.exhausted ? "exhausted" : "readied" },
                h("div", { class: "pc-card-name" }, name),
                h("div", { class: "small" }, `${planet.resources}R · ${planet.influence}I`),
                (planet.attachments || []).map((a) => h("div", { class: "pc-attachment small" }, `+ ${a.name}`)),
                h("div", { class: "pc-card-state small" }, planet.exhausted ? "exhausted" : "readied"),
              );
            }),
          ),
        );
      }),
    );
  }

  drawObjectives() {
    const v = this.view();
    fill(
      this.objectives,
      h("h3", {}, `Objectives (${v.objectives_left} unrevealed)`),
      h(
        "ul",
        {},
        v.objectives.map((o) => h("li", { dataset: { objective: o.id } }, h("strong", {}, o.name), `: ${o.text}`, o.scored_by.length ? h("span", { class: "muted" }, ` · scored by ${o.scored_by.map((s) => titleCase(this.colourOf(s))).join(", ")}`) : null)),
      ),
    );
  }
}
