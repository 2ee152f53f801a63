// The Campus Conquest board: the campus map drawn from geometry data (static/maps/<map>.json),
// sectors in their owner's colour and pattern, units with levels, landmarks, the PVC once
// revealed; click a unit, then a highlighted sector. Every clickable step is a leaf of the
// options tree the server sent (root -> unit's sector -> destination), so no rule lives here.
// The minigame's pick is saved to the server as a draft seen only by its seat, with a ready
// toggle (drafts.js): the minigame resolves once every player is ready, and at the deadline
// the saved pick counts whether ready or not.

import { api } from "../api.js";
import { fill, h, plural, refill, s } from "../dom.js";
import { SavedOrders } from "../drafts.js";
import { leaves } from "../options.js";
import { Zoom } from "../zoom.js";
import { lastCombatBox } from "./results.js";

// Okabe–Ito colours, told apart with most colour-vision deficiencies; each seat also has its
// own stripe pattern, so no one depends on colour alone.
const PALETTE = ["#E69F00", "#56B4E9", "#009E73", "#CC79A7", "#0072B2", "#D55E00"];
const PATTERNS = [
  { angle: 45, kind: "lines" },
  { angle: -45, kind: "lines" },
  { angle: 0, kind: "lines" },
  { angle: 0, kind: "dots" },
  { angle: 90, kind: "lines" },
  { angle: 45, kind: "cross" },
];
const UNOWNED = "#f4f0e6";
const geometryCache = new Map();

function loadGeometry(name) {
  if (!geometryCache.has(name)) {
    geometryCache.set(name, api.staticJson(`/static/maps/${encodeURIComponent(name)}.json`));
  }
  return geometryCache.get(name);
}

function addStyles() {
  if (document.querySelector("link[data-campus-css]")) return;
  document.head.append(h("link", { rel: "stylesheet", href: "/static/css/campus.css", dataset: { campusCss: "1" } }));
}

function star(cx, cy, outer, inner) {
  const points = [];
  for (let k = 0; k < 10; k += 1) {
    const r = k % 2 ? inner : outer;
    const a = (Math.PI / 5) * k - Math.PI / 2;
    points.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return points.join(" ");
}

export class CampusBoard {
  constructor(ctx) {
    this.ctx = ctx;
    this.selected = null;
    this.geometry = null;
    this.geometryFor = null;
    this.busy = false;
    this.saved = new SavedOrders(ctx, () => this.update());
    this.savedFor = null;
    this.dialogHidden = null;  // the state id whose minigame dialog the player put away
    addStyles();
  }

  // --- renderer interface ------------------------------------------------------------

  tabs() {
    return [];
  }

  seatColour(seat) {
    return PALETTE[seat % PALETTE.length];
  }

  headline() {
    const v = this.view();
    if (!v) return { title: "Campus Conquest" };
    if (v.phase === "over") return { title: "Game over" };
    if (v.phase === "minigame") return { title: `Round ${v.round} · minigame` };
    return { title: `Round ${v.round} · ${this.name(v.current)}` };
  }

  mountBoard(el) {
    this.el = el;
    this.status = h("div", { class: "cc-status", id: "cc-status", role: "status" });
    this.mapBox = h("div", { class: "cc-map-box", id: "cc-map-box" });
    this.zoom = new Zoom(this.mapBox, "the campus map");
    this.controls = h("div", { class: "cc-controls", id: "cc-controls" });
    this.minigame = h("div", { class: "cc-minigame", id: "cc-minigame" });
    this.events = h("div", { class: "cc-events", id: "cc-events" });
    this.combat = h("div", { class: "cc-combat" });
    this.players = h("div", { class: "cc-players", id: "cc-players" });
    el.append(
      h(
        "div",
        { class: "cc-board" },
        h("div", { class: "cc-main" }, this.status, this.zoom.bar, this.mapBox, this.controls),
        h("div", { class: "cc-side" }, this.minigame, this.combat, this.players, this.events),
      ),
    );
  }

  update() {
    const v = this.view();
    if (!this.el || !v) return;
    if (this.geometryFor !== v.map) {
      this.geometryFor = v.map;
      this.geometry = null;
      loadGeometry(v.map).then((geo) => {
        this.geometry = geo && geo.sectors && Object.keys(geo.sectors).length === v.owners.length ? geo : false;
        this.update();
      });
    }
    const steps = this.steps();
    if (this.selected && !steps.has(this.selected)) this.selected = null;
    this.drawStatus();
    this.drawMap();
    this.drawControls();
    this.drawMinigame();
    this.drawPlayers();
    this.drawEvents();
    fill(this.combat, v.last_combat ? lastCombatBox(v.last_combat, (s) => this.who(s), (s) => this.name(s), (c) => this.sectorName(c)) : null);
  }

  unmount() {
    this.closeDialog();
  }

  // --- data --------------------------------------------------------------------------

  view() {
    return this.ctx.state ? this.ctx.state.observation.view : null;
  }

  tree() {
    const state = this.ctx.state;
    return state && state.can_act ? state.options : null;
  }

  /** The server's odds of the attack from `from` into `to` (view.attacks), or null. */
  odds(from, to) {
    const v = this.view();
    return ((v && v.attacks) || []).find((o) => o.from === from && o.to === to) || null;
  }

  /** An attack's chance in words, as Illuminati gives its "needs N or less". */
  oddsText(o) {
    return `Attack ${this.sectorName(o.to)}: ${o.percent}% to win (${o.wins} in ${o.of}): ${o.roll}`;
  }

  /** The steps offered now: unit's sector -> Map(destination -> notation). */
  steps() {
    const out = new Map();
    const tree = this.tree();
    for (const child of (tree && tree.children) || []) {
      if (!child.children) continue;
      out.set(child.key, new Map(child.children.filter((c) => c.action).map((c) => [c.key, c.action])));
    }
    return out;
  }

  leaf(prefix) {
    return leaves(this.tree()).filter((l) => l.action.startsWith(prefix));
  }

  name(seat) {
    const v = this.view();
    const p = v && v.players[seat];
    return p ? p.name : `Seat ${seat + 1}`;
  }

  who(seat) {
    const seats = this.ctx.summary.seats || [];
    const player = seats[seat] && seats[seat].player;
    const me = this.ctx.mySeat();
    if (seat === me) return `You (${this.name(seat)})`;
    return player ? `${this.name(seat)} (${player})` : this.name(seat);
  }

  sectorName(code) {
    const geo = this.geometry;
    const sector = geo && geo.sectors[code];
    return sector ? `${sector.name} (${code})` : code;
  }

  async act(text) {
    if (this.busy) return;
    this.busy = true;
    try {
      await this.ctx.act({ action: text });
      this.selected = null;
    } catch {
      // the game view showed the reason
    } finally {
      this.busy = false;
    }
  }

  // --- drawing -----------------------------------------------------------------------

  drawStatus() {
    const v = this.view();
    const me = this.ctx.mySeat();
    let main;
    let why = "";
    if (v.phase === "over") {
      main = `Game over: ${v.end || ""}`;
    } else if (v.phase === "minigame") {
      const g = v.minigame;
      main = `${this.who(g.capturer)} found the Pro-Vice-Chancellor on ${this.sectorName(g.sector)}!`;
      const still = this.ctx.state.table ? this.ctx.state.table.waiting : g.waiting;  // ready seats are done
      why = `Minigame: still deciding: ${still.map((p) => this.name(p)).join(", ") || "nobody"}. Saved picks are sent in together once everyone is ready, or at the deadline.`;
    } else {
      main = `${this.who(v.current)} ${v.current === me ? "have" : "has"} the move: ${v.steps_left} step${v.steps_left === 1 ? "" : "s"} left.`;
      why = v.current === me ? (this.selected ? `Unit on ${this.sectorName(this.selected)} selected: click a highlighted sector.` : "Click one of your units, then a highlighted sector; or pass.") : "";
    }
    const pvc = v.pvc;
    const pvcText =
      pvc.status === "revealed"
        ? `The Pro-Vice-Chancellor has been spotted on ${this.sectorName(pvc.sector)}.`
        : pvc.status === "hidden"
          ? `The Pro-Vice-Chancellor is hidden (${pvc.cycles} full round${pvc.cycles === 1 ? "" : "s"} uncaught; revealed after more than ${pvc.reveal_after}).`
          : "The Pro-Vice-Chancellor was captured; it hides again after this turn.";
    fill(
      this.status,
      h("div", { class: ["cc-main-line", v.phase === "move" && v.current === me && "my-turn"] }, v.phase === "move" ? h("span", { class: "swatch big", style: { background: this.seatColour(v.current) } }) : null, main),
      why ? h("div", { class: "cc-why" }, why) : null,
      h("div", { class: "cc-pvc-line small", id: "cc-pvc-line" }, pvcText),
    );
  }

  drawMap() {
    const v = this.view();
    const geo = this.geometry;
    if (!geo) {
      const text = geo === false ? "This map has no drawing: choose steps from “All steps” below." : "Loading the campus map…";
      fill(this.mapBox, h("p", { class: "muted" }, text));
      return;
    }
    // The geometry lists sectors in the map data's order, the order of the observation's lists.
    const codes = Object.keys(geo.sectors);
    const steps = this.steps();
    const targets = this.selected ? steps.get(this.selected) || new Map() : new Map();
    const defs = s(
      "defs",
      {},
      PATTERNS.map((pat, i) =>
        s(
          "pattern",
          { id: `cc-pat-${i}`, width: 10, height: 10, patternUnits: "userSpaceOnUse", patternTransform: `rotate(${pat.angle})` },
          pat.kind === "dots"
            ? s("circle", { cx: 5, cy: 5, r: 2, fill: "rgba(0,0,0,0.35)" })
            : [s("line", { x1: 0, y1: 0, x2: 0, y2: 10, stroke: "rgba(0,0,0,0.28)", "stroke-width": 2.5 }), pat.kind === "cross" ? s("line", { x1: 0, y1: 5, x2: 10, y2: 5, stroke: "rgba(0,0,0,0.28)", "stroke-width": 2.5 }) : null],
        ),
      ),
    );
    const decor = (geo.decor || []).map((d) => s("path", { d: d.path, class: ["cc-decor", `cc-${d.kind}`] }, s("title", {}, d.name)));
    const sectors = codes.map((code, i) => {
      const g = geo.sectors[code];
      const owner = v.owners[i];
      const unit = v.units[i];
      const isUnit = steps.has(code);
      const target = targets.get(code);
      const [ux, uy] = g.unit;
      const [mx, my] = g.mark;
      const label = `${g.name} (${code})${owner === null ? ", unowned" : `, ${this.name(owner)}`}${unit ? `, ${this.name(unit[0])} unit level ${unit[1]}` : ""}${g.landmark ? `, ${g.landmark} landmark` : ""}`;
      return s(
        "g",
        {
          class: ["cc-sector", isUnit && "selectable", this.selected === code && "selected", target && "target"],
          dataset: { code, owner: owner === null ? "" : owner, x: ux, y: uy, target: target || "" },
          onClick: (event) => {
            event.stopPropagation();
            this.click(code);
          },
        },
        s("title", {}, label),
        s("path", { d: g.path, class: "cc-ground", fill: owner === null ? UNOWNED : this.seatColour(owner) }),
        owner === null ? null : s("path", { d: g.path, class: "cc-pattern", fill: `url(#cc-pat-${owner % PATTERNS.length})` }),
        s("path", { d: g.path, class: "cc-edge" }),
        s("text", { x: g.label[0], y: g.label[1], class: "cc-label" }, g.name),
        s("text", { x: g.label[0], y: g.label[1] + 12, class: "cc-code" }, code),
        g.landmark
          ? s(
              "g",
              { class: ["cc-landmark", `cc-${g.landmark}`] },
              s("polygon", { points: star(mx, my, 11, 5) }),
              s("text", { x: mx, y: my + 21, class: "cc-landmark-text" }, g.landmark === "attack" ? "+A" : "+D"),
            )
          : null,
        unit
          ? s(
              "g",
              { class: "cc-unit", dataset: { unitOwner: unit[0], level: unit[1] } },
              s("circle", { cx: ux, cy: uy, r: 15, fill: this.seatColour(unit[0]) }),
              s("text", { x: ux, y: uy + 5, class: "cc-level" }, String(unit[1])),
            )
          : null,
        target && this.odds(this.selected, code) ? this.oddsBadge(this.odds(this.selected, code), ux, uy) : null,
      );
    });
    const pvc = v.pvc && v.pvc.sector && geo.sectors[v.pvc.sector] ? geo.sectors[v.pvc.sector] : null;
    const pvcMark = pvc
      ? s(
          "g",
          { class: "pvc", id: "cc-pvc", dataset: { code: v.pvc.sector } },
          s("title", {}, "The Pro-Vice-Chancellor"),
          s("rect", { x: pvc.unit[0] - 22, y: pvc.unit[1] + 16, width: 44, height: 17, rx: 4 }),
          s("text", { x: pvc.unit[0], y: pvc.unit[1] + 29 }, "PVC"),
        )
      : null;
    const svg = s(
      "svg",
      { id: "campus-map", class: "cc-map", viewBox: geo.viewBox.join(" "), role: "img", "aria-label": geo.title, onClick: () => this.click(null) },
      defs,
      decor,
      sectors,
      pvcMark,
    );
    refill(this.mapBox, svg);
  }

  /** A target's chance to win, on the map under the defending unit. */
  oddsBadge(o, x, y) {
    return s(
      "g",
      { class: "cc-odds", dataset: { odds: o.percent } },
      s("rect", { x: x - 20, y: y + 17, width: 40, height: 17, rx: 4 }),
      s("text", { x, y: y + 30 }, `${o.percent}%`),
    );
  }

  click(code) {
    const steps = this.steps();
    if (code && this.selected) {
      const target = (steps.get(this.selected) || new Map()).get(code);
      if (target) {
        this.act(target);
        return;
      }
    }
    this.selected = code && steps.has(code) && this.selected !== code ? code : null;
    this.update();
  }

  drawControls() {
    const v = this.view();
    const parts = [];
    const pass = this.leaf("pass")[0];
    const steps = this.steps();
    if (pass) {
      parts.push(h("button", { type: "button", id: "cc-pass", class: "primary", onClick: () => this.act(pass.action) }, "Pass (end turn)"));
    }
    const attacks = this.selected ? [...(steps.get(this.selected) || new Map()).keys()].map((to) => this.odds(this.selected, to)).filter(Boolean) : [];
    if (attacks.length) {
      parts.push(h("ul", { class: "cc-odds-list small", id: "cc-odds" }, attacks.map((o) => h("li", { dataset: { to: o.to } }, this.oddsText(o)))));
    }
    if (steps.size) {
      const all = [...steps].flatMap(([from, to]) => [...to].map(([dest, action]) => ({ from, dest, action })));
      const select = h("select", { id: "cc-step-list", "aria-label": "All steps" }, all.map((a) => h("option", { value: a.action }, `${this.sectorName(a.from)} → ${this.sectorName(a.dest)}${this.odds(a.from, a.dest) ? ` (attack: ${this.odds(a.from, a.dest).percent}% to win)` : ""}`)));
      // Kept open across redraws (a click on the map, news from the table redraw the controls).
      parts.push(h("details", { class: "cc-all-steps", id: "cc-all-steps", open: Boolean(this.allOpen), onToggle: (e) => { this.allOpen = e.target.open; } }, h("summary", {}, "All steps"), h("div", { class: "row" }, select, h("button", { type: "button", id: "cc-step-go", onClick: () => this.act(select.value) }, "Move"))));
    }
    if (!parts.length && v.phase === "move" && this.ctx.mySeat() !== null) {
      parts.push(h("p", { class: "muted" }, `Waiting for ${this.name(v.current)}.`));
    }
    fill(this.controls, parts);
  }

  drawMinigame() {
    const v = this.view();
    const picks = this.leaf("pick ");
    const game = v.minigame;
    const parts = [];
    const drafts = picks.length > 0 && this.saved.enabled;
    if (drafts) this.loadSaved();
    if (game) {
      // Done (picked, or ready with a saved pick) or not, from the server's `table`; never what.
      const table = this.ctx.state.table;
      const done = table ? table.done : game.picked;
      const still = table ? table.waiting : game.waiting;
      parts.push(
        h("h3", {}, `Minigame ${game.number}`),
        h("p", { class: "small", id: "cc-minigame-who" }, `Everyone picks a whole number from 0 to 100 in secret; the closest to two thirds of the average wins. Done: ${done.map((p) => this.name(p)).join(", ") || "nobody yet"}; still deciding: ${still.map((p) => this.name(p)).join(", ") || "nobody"}. A player's saved pick stays private and is sent in with the others once everyone is ready, or at the deadline.`),
        v.my_pick ? h("p", { class: "small", id: "cc-my-pick" }, v.my_pick) : null,
      );
      if (drafts) {
        parts.push(
          h("p", { class: "small", id: "cc-my-draft" }, this.pickNote()),
          h("div", { class: "row" }, h("button", { type: "button", id: "cc-pick-open", onClick: () => { this.dialogHidden = null; this.update(); } }, "Change my pick"), this.readyButton("cc-ready-side")),
        );
      }
    }
    const last = v.last_minigame;
    if (last) {
      const picks = Object.entries(last.picks).map(([seat, value]) => `${this.name(Number(seat))} ${value === null ? "no pick" : value}`);
      const bonuses = Object.entries(last.bonuses).map(([seat, b]) => `${this.name(Number(seat))} +${b}`);
      parts.push(
        h(
          "div",
          { class: "cc-last-minigame", id: "cc-last-minigame" },
          h("strong", {}, `Minigame ${last.number}: `),
          last.winner === null ? "nobody picked. " : `${this.name(last.winner)} wins (target ${last.target}). `,
          `Picks: ${picks.join(", ")}. Bonuses (attack and defence): ${bonuses.join(", ")}.`,
        ),
      );
    }
    fill(this.minigame, parts);
    const stateId = this.ctx.state.state_id;
    if (picks.length && this.dialogHidden !== stateId) this.openDialog(game);
    else this.closeDialog();
  }

  // --- the minigame pick, saved as a draft -------------------------------------------

  /** The pick as the server has it saved for this seat ("pick 42", "pick none") or null. */
  savedPick() {
    const tree = this.tree();
    return tree ? this.saved.server.get(tree.key) || null : null;
  }

  loadSaved() {
    const stateId = this.ctx.state.state_id;
    if (this.savedFor === stateId) return;
    this.savedFor = stateId;
    this.saved.load(stateId).then((server) => {
      if (server === null || this.savedFor !== stateId) return;
      // The dialog may have opened before the saved pick arrived: show it unless edited.
      const pick = this.savedPick();
      const input = this.pickInput;
      if (input && !input.dataset.edited && pick && /^pick \d+$/.test(pick)) input.value = pick.slice(5);
      this.update();
    });
  }

  pickNote() {
    const saved = this.saved;
    const pick = this.savedPick();
    const what = pick === null ? null : pick === "pick none" ? "no pick" : pick.replace(/^pick /, "");
    if (saved.error) return `Not saved: ${saved.error}`;
    if (what === null) return saved.ready ? "✓ Ready with nothing saved: you make no pick." : "Nothing saved yet: no pick counts for you at the deadline.";
    if (saved.ready) return `✓ Ready with your pick: ${what}. The minigame is played once everyone is ready; you may still change it.`;
    return `Your saved pick: ${what}. It counts at the deadline even if you do not say you are ready.`;
  }

  readyButton(id) {
    const saved = this.saved;
    const tree = this.tree();
    // Ready saves what the pick box shows (typed but not yet saved) along with the flag.
    const keep = () => {
      const typed = this.typedPick();
      const pick = typed && typed.ok ? typed.text : this.savedPick();
      return pick && tree ? new Map([[tree.key, pick]]) : new Map();
    };
    const press = () => {
      const typed = this.typedPick();
      if (!saved.ready && typed && !typed.ok) {
        if (this.pickError) this.pickError.textContent = "A whole number from 0 to 100, please (or No pick).";
        return;
      }
      saved.save(keep, !saved.ready);
    };
    return h("button", { type: "button", class: ["primary", saved.ready && "is-ready"], id, "aria-pressed": String(saved.ready), onClick: press }, saved.ready ? "✓ Ready (click: not yet)" : "Ready");
  }

  /** What the open pick box holds: {ok, text: "pick 33"}; null when it is closed or empty. */
  typedPick() {
    const input = this.pickInput;
    if (!input || !input.isConnected || input.value.trim() === "") return null;
    const n = Number(input.value);
    const ok = Number.isInteger(n) && n >= 0 && n <= 100;
    return { ok, text: ok ? `pick ${n}` : null };
  }

  /** Save `text` as this seat's pick (a draft), or submit it where no server keeps drafts. */
  choosePick(text) {
    const tree = this.tree();
    if (!this.saved.enabled || !tree) {
      this.closeDialog();
      this.act(text);
      return;
    }
    this.saved.save(() => new Map([[tree.key, text]]));
  }

  openDialog(game) {
    if (this.dialog && this.dialog.isConnected) {
      this.drawDialogStatus();
      return;
    }
    const pick = this.savedPick();
    const start = pick && /^pick \d+$/.test(pick) ? pick.slice(5) : "33";
    const input = h("input", { id: "cc-pick-value", type: "number", min: 0, max: 100, step: 1, value: start, required: true, onInput: () => { input.dataset.edited = "1"; } });
    this.pickInput = input;
    const error = this.pickError = h("p", { class: "form-error", role: "alert", id: "cc-pick-error" });
    const el = h("dialog", { class: "dialog cc-dialog", id: "cc-pick-dialog" });
    this.dialogStatus = h("div", { class: "cc-pick-status" });
    const drafts = this.saved.enabled;
    el.append(
      h("h2", {}, "The Pro-Vice-Chancellor's minigame"),
      h("p", {}, `${this.who(game.capturer)} captured the PVC on ${this.sectorName(game.sector)}. Pick a whole number from 0 to 100: the pick closest to two thirds of the average of all picks wins a bonus. Picks are secret until everyone has picked.`),
      h(
        "form",
        {
          onSubmit: (event) => {
            event.preventDefault();
            const n = Number(input.value);
            if (input.value.trim() === "" || !Number.isInteger(n) || n < 0 || n > 100) {
              error.textContent = "A whole number from 0 to 100, please.";
              return;
            }
            error.textContent = "";
            this.choosePick(`pick ${n}`);
          },
        },
        h("label", { class: "field", for: "cc-pick-value" }, "Your pick", input),
        error,
        h(
          "div",
          { class: "row end" },
          h("button", { type: "button", id: "cc-no-pick", onClick: () => { input.value = ""; this.choosePick("pick none"); } }, "No pick"),
          h("button", { type: "submit", class: drafts ? "" : "primary", id: "cc-pick-send" }, drafts ? "Save pick" : "Pick"),
        ),
      ),
      drafts ? this.dialogStatus : null,
    );
    el.addEventListener("cancel", (event) => event.preventDefault());
    document.body.append(el);
    this.dialog = el;
    el.showModal();
    this.drawDialogStatus();
  }

  drawDialogStatus() {
    if (!this.dialogStatus || !this.saved.enabled) return;
    const stateId = this.ctx.state.state_id;
    fill(
      this.dialogStatus,
      h("p", { class: ["submitted", this.saved.ready ? "ok" : "pending"], id: "cc-pick-status", role: "status" }, this.pickNote()),
      h(
        "div",
        { class: "row end" },
        h("button", { type: "button", id: "cc-pick-hide", onClick: () => { this.dialogHidden = stateId; this.update(); } }, "Close"),
        this.readyButton("cc-ready"),
      ),
    );
  }

  closeDialog() {
    if (this.dialog) {
      if (this.dialog.open) this.dialog.close();
      this.dialog.remove();
      this.dialog = null;
      this.dialogStatus = null;
      this.pickInput = null;
    }
  }

  drawPlayers() {
    const v = this.view();
    const me = this.ctx.mySeat();
    fill(
      this.players,
      v.players.map((p) =>
        h(
          "div",
          { class: ["cc-player", p.seat === me && "me", p.seat === v.current && v.phase === "move" && "to-act", !p.alive && "out"], dataset: { seat: p.seat } },
          h("div", { class: "cc-player-head" }, h("span", { class: ["swatch", `cc-swatch-${p.seat % PATTERNS.length}`], style: { background: this.seatColour(p.seat) } }), h("strong", {}, this.who(p.seat)), p.alive ? null : h("span", { class: "badge" }, "out")),
          h("div", { class: "small" }, `${plural(p.sectors, "sector")} · ${plural(p.units, "unit")} · attack +${p.attack} · defence +${p.defence}`),
          p.landmarks.length ? h("div", { class: "small muted" }, `Landmarks: ${p.landmarks.map((c) => this.sectorName(c)).join(", ")}`) : null,
        ),
      ),
    );
  }

  drawEvents() {
    const v = this.view();
    const items = (v.events || []).slice(-14).reverse();
    fill(
      this.events,
      h("h3", {}, "What happened"),
      h(
        "ol",
        // A list that scrolls is reachable by keyboard, so it can be scrolled without a mouse.
        { class: "cc-event-list", id: "cc-event-list", tabindex: 0, "aria-label": "what happened" },
        items.map((e) => h("li", { class: ["cc-event", `cc-event-${e.kind}`], dataset: { kind: e.kind } }, e.seat !== null && e.seat !== undefined ? h("span", { class: "swatch", style: { background: this.seatColour(e.seat) } }) : null, e.text)),
      ),
    );
  }
}
