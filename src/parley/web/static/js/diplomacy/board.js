// The Diplomacy board: an SVG map drawn from geometry data, units and supply centres from
// the observation, orders built by clicking among the choices of the server's options
// tree, the order list, results with their reasons, and earlier phases.
//
// Nothing here decides what is legal: a click can only pick a leaf the server offered.

import { SavedOrders } from "../drafts.js";
import { api } from "../api.js";
import { fill, h, s, titleCase, toast } from "../dom.js";
import { groups, leaves, normalise } from "../options.js";
import { loadGeometry, provincesSeen } from "./geometry.js";
import { candidates, MODE_KINDS, nextTargets, province, readOrder, readUnit } from "./notation.js";

// Display colours by seat index (the classical map's powers in its order); presentation only.
// The first seven are told apart from each other, from the sea and from neutral land, also
// by colour-blind players: `python -m parley.web.maps.palette` checks them (docs/web.md).
const PALETTE = ["#7f1d3a", "#8a5c80", "#3174fd", "#80867a", "#2b7905", "#6a2fc8", "#e5a921", "#d2742c", "#2a9d8f", "#b5487c"];
// How far a power's colour is mixed with white to fill its provinces.
const FILL_TINT = 0.3;
const SEASONS = { S: "Spring", F: "Fall", W: "Winter" };
const KINDS = { M: "Movement", R: "Retreats", A: "Adjustments" };

export function phaseTitle(code) {
  const m = /^([SFW])(\d+)([MRA])$/.exec(code || "");
  return m ? `${SEASONS[m[1]]} ${m[2]} · ${KINDS[m[3]]}` : code || "";
}

function tint(hex, amount) {
  const n = parseInt(hex.slice(1), 16);
  const mix = (c) => Math.round(c + (255 - c) * amount);
  const r = mix((n >> 16) & 255);
  const g = mix((n >> 8) & 255);
  const b = mix(n & 255);
  return `rgb(${r}, ${g}, ${b})`;
}

const ARMY_ICON = "M -11 7 L 11 7 L 11 1 L 5 1 L 5 -4 L 13 -7 L 12 -9 L 4 -6 L -5 -6 L -7 1 L -11 1 Z";
const FLEET_ICON = "M -14 0 L 14 0 L 9 8 L -9 8 Z M -7 0 L -7 -5 L 5 -5 L 5 0 Z M -1 -5 L -1 -12 L 1 -12 L 1 -5 Z";

export class DiplomacyBoard {
  constructor(ctx) {
    this.ctx = ctx;
    this.geometry = null;
    this.geometryFor = null;
    this.draft = new Map();
    this.draftPhase = null;
    this.saved = new SavedOrders(ctx, () => this.drawOrdersTab());
    this.selected = null;
    this.mode = "move";
    this.clicks = [];
    this.viewing = null;  // {stateId, phase} of the earlier step looked at, else null (now)
    this.showResults = true;
    this.lastStateId = null;
    this.submittedText = null;
    this.history = this.loadHistory();
    // Earlier steps as the server keeps them: where each begins, and the observations
    // fetched at those points (by seq), so anyone can step back through the whole game.
    this.steps = null;
    this.stepsFor = null;
    this.past = new Map();  // seq -> pending or settled fetch of the view there
    this.pastViews = new Map();  // seq -> the observation's view, once fetched
    this.zoom = null;
    this.orderTab = h("div", { class: "orders-tab", id: "orders-panel" });
    this.resultsTab = h("div", { class: "results-tab", id: "results-panel" });
  }

  // --- renderer interface ------------------------------------------------------------

  tabs() {
    return [
      { key: "orders", label: "Orders", el: this.orderTab },
      { key: "results", label: "Results", el: this.resultsTab },
    ];
  }

  seatColour(seat) {
    return PALETTE[seat % PALETTE.length];
  }

  /** A power's name as every screen spells it ("France", never "FRANCE"). */
  displayName(name) {
    return titleCase(name);
  }

  headline() {
    const pos = this.position();
    const code = pos ? pos.phase : "";
    // A finished game's position is the phase that would come next (Spring 1902 after a
    // year limit of 1901): naming it would read as if it were still to be played.
    return { title: this.finished() ? "Game over" : phaseTitle(code) };
  }

  finished() {
    const summary = this.ctx.summary;
    return Boolean(summary && ["finished", "closed"].includes(summary.status));
  }

  mountBoard(el) {
    this.boardEl = el;
    this.toolbar = h("div", { class: "board-toolbar" });
    this.svgBox = h("div", { class: "map-box", id: "map-box" });
    this.modeBar = h("div", { class: "mode-bar", id: "mode-bar" });
    this.legend = h("div", { class: "legend", id: "legend" });
    this.popup = h("div", { class: "popup", hidden: true, id: "order-popup" });
    el.append(this.toolbar, h("div", { class: "map-wrap" }, this.svgBox, this.popup), this.modeBar, this.legend);
    this.keyHandler = (event) => {
      if (event.target && ["INPUT", "TEXTAREA", "SELECT"].includes(event.target.tagName)) return;
      if (event.key === "Escape") this.deselect();
      const modes = { m: "move", s: "support", c: "convoy" };
      if (this.selected && modes[event.key]) this.setMode(modes[event.key]);
      if (this.selected && event.key === "h") this.pickKind("hold");
    };
    document.addEventListener("keydown", this.keyHandler);
  }

  unmount() {
    this.unmounted = true;
    document.removeEventListener("keydown", this.keyHandler);
  }

  async update(kind) {
    const state = this.ctx.state;
    if (!state) return;
    const view = state.observation.view;
    this.remember(view, state.state_id);
    this.loadSteps();
    if (state.state_id !== this.lastStateId) {
      // A new phase: forget the selection, show what just happened.
      if (this.lastStateId !== null && (view.last || []).length) {
        toast(`${phaseTitle(view.last[0].phase)} is resolved: its results are on the map and in Results.`);
      }
      this.lastStateId = state.state_id;
      this.deselect(false);
      this.showResults = true;
      this.submitError = null;
    }
    const phase = view.position ? view.position.phase : null;
    if (phase !== this.typedPhase) {
      // Text typed for an earlier phase means nothing now: start the new phase empty.
      if (this.typedPhase !== undefined) this.typedText = "";
      this.typedError = "";
      this.typedPhase = phase;
    }
    this.syncDraft();
    const mapName = view.map;
    const seen = provincesSeen(view, this.optionLeaves().map((l) => l.action));
    if (!this.geometry || this.geometryFor !== mapName || (this.geometry.schematic && [...seen].some((p) => !this.geometry.provinces[p]))) {
      if (!this.loadingGeometry) {
        this.loadingGeometry = loadGeometry(mapName, seen).then((geometry) => {
          this.geometry = geometry;
          this.geometryFor = mapName;
          this.buildSvg();
          this.loadingGeometry = null;
        });
      }
      await this.loadingGeometry;
    }
    this.draw();
    this.drawOrdersTab();
    this.drawResultsTab();
  }

  // --- data --------------------------------------------------------------------------

  obsView() {
    return this.ctx.state.observation.view;
  }

  /** The position drawn: now, or the earlier phase looked at (once it is known). */
  position() {
    if (!this.ctx.state) return null;
    const past = this.shownPast();
    if (past && past.position) return past.position;
    return this.obsView().position;
  }

  tree() {
    return this.ctx.state && this.ctx.state.can_act ? this.ctx.state.options : null;
  }

  optionLeaves() {
    return leaves(this.tree());
  }

  orderGroups() {
    return groups(this.tree());
  }

  isAdjustment() {
    const pos = this.obsView().position;
    return /A$/.test(pos.phase);
  }

  isRetreat() {
    return /R$/.test(this.obsView().position.phase);
  }

  /** What happens to what is left unordered (as the manual explains it). */
  defaultText() {
    if (this.isRetreat()) return "a dislodged unit without an order is disbanded.";
    if (this.isAdjustment()) return "builds not chosen are waived, disbands not chosen are made for you.";
    return "units without an order hold.";
  }

  /** Group of the unit in `prov` (movement and retreats: groups are keyed by location). */
  groupAt(prov) {
    return this.orderGroups().find((g) => province(g.key) === prov && leaves(g.node).some((l) => readOrder(l.action) && readOrder(l.action).loc === g.key)) || null;
  }

  powerNames() {
    return this.ctx.state.observation.seats || [];
  }

  powerIndex(name) {
    return this.powerNames().indexOf(name);
  }

  // --- earlier phases: remembered as seen, and fetched from the server ---------------

  loadHistory() {
    try {
      const raw = JSON.parse(localStorage.getItem(this.ctx.storageKey("phases")) || "null");
      if (raw && raw.positions && raw.results) return { phaseOf: {}, ...raw };
    } catch {
      // a damaged entry is simply started afresh
    }
    return { positions: {}, results: {}, phaseOf: {} };
  }

  saveHistory() {
    try {
      localStorage.setItem(this.ctx.storageKey("phases"), JSON.stringify(this.history));
    } catch {
      // storage full: what is not kept is fetched again from the server
    }
  }

  remember(view, stateId) {
    let changed = false;
    const pos = view.position;
    if (pos && !this.history.positions[pos.phase]) {
      this.history.positions[pos.phase] = pos;
      changed = true;
    }
    if (pos && stateId !== undefined && stateId !== null && this.history.phaseOf[stateId] !== pos.phase) {
      this.history.phaseOf[stateId] = pos.phase;
      changed = true;
    }
    for (const phase of view.last || []) {
      if (!this.history.results[phase.phase]) {
        this.history.results[phase.phase] = phase.results;
        changed = true;
      }
    }
    if (changed) this.saveHistory();
  }

  /** Where each step begins, asked again whenever the game moves on. */
  loadSteps() {
    const stateId = this.ctx.state.state_id;
    if (this.stepsFor === stateId) return;
    this.stepsFor = stateId;
    api
      .steps(this.ctx.gameId)
      .then((out) => {
        if (this.unmounted || !out || !Array.isArray(out.steps)) return;
        this.steps = [...out.steps].sort((a, b) => a.seq - b.seq);
        this.redrawHistory();
        this.prefetchLabels();
      })
      .catch(() => {
        // not served or not reachable now: the phases seen in this browser are listed
      });
  }

  /** The viewer's observation (its view) after the first `seq` entries; cached. */
  viewAt(seq) {
    if (this.pastViews.has(seq)) return Promise.resolve(this.pastViews.get(seq));
    if (!this.past.has(seq)) {
      const fetching = api
        .stateAt(this.ctx.gameId, seq)
        .then((out) => {
          const view = out && out.observation ? out.observation.view : null;
          if (view && view.position) this.pastViews.set(seq, view);
          else this.past.delete(seq);
          return view;
        })
        .catch(() => {
          this.past.delete(seq);  // asked again when next needed
          this.failed = seq;
          return null;
        });
      this.past.set(seq, fetching);
    }
    return this.past.get(seq);
  }

  /** Label the steps not seen here with their phase names, one request at a time. */
  async prefetchLabels() {
    if (this.prefetching) return;
    this.prefetching = true;
    try {
      for (const step of this.steps || []) {
        if (this.unmounted) break;
        if (this.stepPhase(step)) continue;
        const view = await this.viewAt(step.seq);
        if (view && !this.unmounted) {
          this.history.phaseOf[step.state_id] = view.position.phase;
          this.saveHistory();
          this.redrawHistory();
        }
      }
    } finally {
      this.prefetching = false;
    }
  }

  /** The phase an entry of the record was made in (for chat messages), or "" if unknown. */
  phaseAt(seq) {
    const state = this.ctx.state;
    if (!state) return "";
    let step = null;
    for (const st of this.steps || []) if (st.seq <= seq) step = st;
    const now = this.obsView().position.phase;
    if (!step) return this.steps && this.steps.length ? "" : seq >= state.seq - 1 ? phaseTitle(now) : "";
    // A step's phase as fetched, else by its place among the phases the view lists.
    const code = step.state_id >= state.state_id ? now : this.stepPhase(step) || (this.obsView().phases || [])[this.steps.indexOf(step)];
    return code ? phaseTitle(code) : "";
  }

  stepPhase(step) {
    const known = this.history.phaseOf[step.state_id];
    if (known) return known;
    const view = this.pastViews.get(step.seq);
    return view ? view.position.phase : null;
  }

  /**
   * Every step that can be shown, oldest first, the current one last. From the server's
   * steps when it serves them, else the phases this browser has seen.
   */
  timeline() {
    const view = this.obsView();
    const now = this.ctx.state.state_id;
    const current = { stateId: now, seq: null, phase: view.position.phase, now: true };
    if (this.steps && this.steps.length) {
      const items = this.steps.filter((st) => st.state_id < now).map((st) => ({ stateId: st.state_id, seq: st.seq, phase: this.stepPhase(st), now: false }));
      return [...items, current];
    }
    const list = [...(view.phases || [])];
    if (!list.includes(view.position.phase)) list.push(view.position.phase);
    return list.map((p) => (p === view.position.phase ? current : { stateId: null, seq: null, phase: p, now: false }));
  }

  itemValue(item) {
    return item.phase || `step-${item.stateId}`;
  }

  itemLabel(item, index) {
    // After the end, "now" is the phase that would have come next: it is the end, not a phase.
    if (item.now && this.finished()) return "The end (game over)";
    const title = item.phase ? phaseTitle(item.phase) : `Step ${index + 1} (loading…)`;
    return item.now ? `${title} (now)` : title;
  }

  sameItem(a, b) {
    if (a.stateId !== null && a.stateId !== undefined && b.stateId !== null && b.stateId !== undefined) return a.stateId === b.stateId;
    return Boolean(a.phase) && a.phase === b.phase;
  }

  /** The earlier step looked at, with its place in the timeline; null when showing now. */
  viewedItem() {
    if (!this.viewing) return null;
    const items = this.timeline();
    const index = items.findIndex((it) => this.sameItem(it, this.viewing));
    if (index < 0 || items[index].now) {
      this.viewing = null;  // no longer listed (e.g. the list now comes from the server)
      return null;
    }
    return { item: items[index], next: items[index + 1] || null };
  }

  /**
   * What is shown of the earlier step looked at: its phase, its position (from when it
   * began) and the results of its adjudication (from when the next step began, or now).
   * A part still unknown is null.
   */
  shownPast() {
    const found = this.viewedItem();
    if (!found) return null;
    const { item, next } = found;
    const before = item.seq !== null ? this.pastViews.get(item.seq) : null;
    const phase = item.phase || (before ? before.position.phase : null);
    const position = (phase && this.history.positions[phase]) || (before ? before.position : null);
    // The server's account (with any phases resolved on their own after it) when at hand.
    let blocks = null;
    if (next && next.now && item.stateId !== null) blocks = this.obsView().last || [];
    else if (next && next.seq !== null && this.pastViews.has(next.seq)) blocks = this.pastViews.get(next.seq).last || [];
    else if (phase && this.history.results[phase]) blocks = [{ phase, results: this.history.results[phase] }];
    const own = blocks ? blocks.find((b) => b.phase === phase) || blocks[0] || null : null;
    return { item, next, phase, position, blocks, results: own ? own.results : null };
  }

  /** Fetch what is missing to show an earlier step, then draw it. */
  async loadPast() {
    const past = this.shownPast();
    if (!past || past.item.stateId === null) return;
    const wanted = [];
    if (!past.position && past.item.seq !== null) wanted.push(past.item.seq);
    if (!past.blocks && past.next && past.next.seq !== null) wanted.push(past.next.seq);
    if (!wanted.length) return;
    this.failed = null;
    this.redrawHistory();
    await Promise.all(wanted.map((seq) => this.viewAt(seq)));
    if (!this.unmounted) this.redrawHistory();
  }

  /** Show an item of the timeline (the current step: back to now). */
  goTo(item) {
    this.viewing = !item || item.now ? null : { stateId: item.stateId, phase: item.phase };
    this.deselect(false);
    this.redrawHistory();
    if (this.viewing) this.loadPast();
  }

  redrawHistory() {
    if (!this.ctx.state) return;
    if (this.svg) this.draw();
    this.drawResultsTab();
  }

  // --- the draft order set -----------------------------------------------------------

  syncDraft() {
    const state = this.ctx.state;
    const phase = this.obsView().position.phase;
    const key = this.ctx.storageKey(`draft.${state.state_id}`);
    if (this.draftPhase !== phase) {
      this.draftPhase = phase;
      this.draftKey = key;
      this.draft = new Map();
      let saved = null;
      try {
        saved = JSON.parse(localStorage.getItem(key) || "null");
      } catch {
        saved = null;
      }
      if (saved) for (const [k, v] of saved) this.draft.set(k, v);
      else this.loadSubmitted();
      if (this.tree()) this.loadSaved(state.state_id, phase);
    }
    this.submittedText = this.submittedOrders();
    // Drop drafted orders the server no longer offers (e.g. the phase moved on).
    const offered = new Set(this.optionLeaves().map((l) => normalise(l.action)));
    if (this.tree()) {
      for (const [k, v] of this.draft) {
        if (!v.typed && !offered.has(normalise(v.action))) this.draft.delete(k);
      }
    }
  }

  saveDraft() {
    try {
      localStorage.setItem(this.draftKey, JSON.stringify([...this.draft]));
    } catch {
      // the draft then lives in this page only
    }
    if (this.saved.enabled) this.saved.save(() => this.draftParts());
  }

  draftParts() {
    return new Map([...this.draft].filter(([, v]) => !v.typed).map(([k, v]) => [k, v.action]));
  }

  /** The server's saved orders for a new phase win over this browser's; else send ours. */
  async loadSaved(stateId, phase) {
    const server = await this.saved.load(stateId);
    if (server === null || this.draftPhase !== phase) return;
    if (server.size) {
      this.draft = new Map([...server].map(([k, action]) => [k, { action }]));
      try {
        localStorage.setItem(this.draftKey, JSON.stringify([...this.draft]));
      } catch {
        // kept in this page only
      }
    } else if (this.draft.size) {
      this.saved.save(() => this.draftParts());
    }
    this.refreshOrders();
  }

  /** Say the orders are done (or not yet); the phase resolves once every power is ready. */
  async toggleReady() {
    this.submitting = true;
    this.drawOrdersTab();
    await this.saved.save(() => this.draftParts(), !this.saved.ready);
    this.submitting = false;
    this.drawOrdersTab();
  }

  /** My submitted orders for this phase, read from the observation's `my_orders`. */
  submittedOrders() {
    const text = this.obsView().my_orders;
    if (!text) return null;
    const cut = text.indexOf(": ");
    const body = cut >= 0 ? text.slice(cut + 2) : text;
    if (body.trim().toUpperCase() === "NO ORDERS") return [];
    return body.split(";").map((t) => t.trim()).filter(Boolean);
  }

  loadSubmitted() {
    const orders = this.submittedOrders();
    if (!orders) return;
    for (const text of orders) this.assign(text, { silent: true });
  }

  /** Put an offered order into the draft, in the group that offers it. */
  assign(text, { silent = false, replace = null } = {}) {
    const want = normalise(text);
    const gs = this.orderGroups();
    const offering = gs.filter((g) => leaves(g.node).some((l) => normalise(l.action) === want));
    if (!offering.length) return false;
    const action = leaves(offering[0].node).find((l) => normalise(l.action) === want).action;
    let target = replace && offering.find((g) => g.key === replace);
    if (!target) target = offering.find((g) => this.draft.has(g.key) && normalise(this.draft.get(g.key).action) === want);
    if (!target) target = offering.find((g) => !this.draft.has(g.key));
    if (!target) target = offering[0];
    this.draft.set(target.key, { action });
    if (!silent) this.saveDraft();
    return true;
  }

  removeDraft(key) {
    this.draft.delete(key);
    this.saveDraft();
    this.refreshOrders();
  }

  refreshOrders() {
    this.draw();
    this.drawOrdersTab();
  }

  draftMatchesSubmitted() {
    if (!this.submittedText) return false;
    const mine = [...this.draft.values()].map((v) => normalise(v.action)).sort();
    const sent = this.submittedText.map(normalise).sort();
    return mine.length === sent.length && mine.every((t, i) => t === sent[i]);
  }

  async submit() {
    const parts = [...this.draft.values()].map((v) => v.action);
    this.submitting = true;
    this.drawOrdersTab();
    this.submitError = null;
    try {
      if (parts.length) await this.ctx.act({ parts });
      else await this.ctx.act({ action: "NO ORDERS" });
      toast(parts.length ? "Orders submitted. You can change them until every power has submitted." : "Submitted: your units hold.");
    } catch (err) {
      this.submitError = (err && err.message) || String(err);  // shown under the orders too
    } finally {
      this.submitting = false;
      this.drawOrdersTab();
    }
  }

  // --- clicking ----------------------------------------------------------------------

  clickProvince(prov, event) {
    this.hidePopup();
    if (this.viewing) {
      toast("You are looking at an earlier phase; go back to the current one to order.");
      return;
    }
    if (!this.tree()) return;
    if (this.isAdjustment()) {
      this.clickAdjustment(prov, event);
      return;
    }
    if (!this.selected) {
      const group = this.groupAt(prov);
      if (group) this.select(group);
      return;
    }
    if (prov === this.selected.prov && this.clicks.length === 0) {
      this.deselect();  // UC 26: clicking the selected unit again lets go of it
      return;
    }
    const readLeaves = leaves(this.selected.group.node).map((l) => readOrder(l.action)).filter(Boolean);
    const clicks = [...this.clicks, prov];
    const cands = candidates(readLeaves, this.mode, clicks);
    if (!cands.length) {
      const other = this.groupAt(prov);
      if (other && this.clicks.length === 0) {
        this.select(other);
        return;
      }
      toast(`${prov} is not one of the choices for ${this.selected.group.label} (${this.modeLabel()}).`, "warn");
      return;
    }
    const complete = cands.filter((o) => this.pathLength(o) === clicks.length);
    const longer = cands.filter((o) => this.pathLength(o) > clicks.length);
    if (complete.length && !longer.length) {
      if (complete.length === 1) this.choose(complete[0].text);
      else this.offer(complete.map((o) => o.text), event);
      return;
    }
    if (complete.length && longer.length) {
      // e.g. a support: clicking the supported unit could mean "support to hold" now, or
      // a destination follows; offer the complete ones and keep going.
      this.clicks = clicks;
      this.offer(complete.map((o) => o.text), event, "or click where it should move");
      this.draw();
      return;
    }
    this.clicks = clicks;
    this.draw();
  }

  pathLength(order) {
    return order.kind === "support" || order.kind === "convoy" ? 2 : 1;
  }

  clickAdjustment(prov, event) {
    // Builds: click an open home centre, then pick the unit. Disbands: click a unit.
    const all = this.optionLeaves().map((l) => l.action);
    const here = all.filter((t) => {
      const o = readOrder(t);
      return o && o.loc && province(o.loc) === prov;
    });
    if (!here.length) return;
    const existing = [...this.draft.entries()].find(([, v]) => {
      const o = readOrder(v.action);
      return o && o.loc && province(o.loc) === prov;
    });
    if (existing) {
      this.removeDraft(existing[0]);  // clicking again takes it back
      return;
    }
    const distinct = [...new Set(here)];
    if (distinct.length === 1) this.choose(distinct[0]);
    else this.offer(distinct, event);
  }

  select(group) {
    this.selected = { group, prov: province(group.key) };
    this.clicks = [];
    this.showResults = false;
    const kinds = new Set(leaves(group.node).map((l) => (readOrder(l.action) || {}).kind));
    this.mode = kinds.has("move") || kinds.has("retreat") ? "move" : kinds.has("support") ? "support" : "move";
    this.draw();
  }

  deselect(redraw = true) {
    this.selected = null;
    this.clicks = [];
    this.hidePopup();
    if (redraw && this.svg) this.draw();
  }

  setMode(mode) {
    this.mode = mode;
    this.clicks = [];
    this.draw();
  }

  modeLabel() {
    return { move: "move", support: "support", convoy: "convoy" }[this.mode];
  }

  pickKind(kind) {
    if (!this.selected) return;
    const leaf = leaves(this.selected.group.node).find((l) => (readOrder(l.action) || {}).kind === kind);
    if (leaf) this.choose(leaf.action);
  }

  choose(text) {
    const replace = this.selected ? this.selected.group.key : null;
    if (this.assign(text, { replace })) {
      this.deselect(false);
      this.refreshOrders();
    }
  }

  offer(texts, event, hint) {
    const box = this.popup;
    // The server lists a move "VIA" only where a convoy route exists; say what it means.
    const via = texts.some((t) => (readOrder(t) || {}).via);
    const viaHint = via ? "Two ways there: over the border, or VIA — carried by sea in fleets that order the convoy (it fails if they do not)." : null;
    const label = (t) => {
      const o = readOrder(t);
      if (!via || !o || o.kind !== "move") return t;
      return o.via ? `${t} — by convoy` : `${t} — over the border`;
    };
    fill(
      box,
      hint ? h("div", { class: "popup-hint" }, hint) : null,
      viaHint ? h("div", { class: "popup-hint", id: "via-hint" }, viaHint) : null,
      texts.map((t) => h("button", { type: "button", class: "popup-choice", dataset: { order: t }, onClick: () => { this.hidePopup(); this.choose(t); } }, label(t))),
      h("button", { type: "button", class: "popup-cancel", onClick: () => this.hidePopup() }, "Cancel"),
    );
    const wrap = this.svgBox.getBoundingClientRect();
    const x = event ? event.clientX - wrap.left : wrap.width / 2;
    const y = event ? event.clientY - wrap.top : wrap.height / 2;
    box.style.left = `${Math.max(4, Math.min(x, wrap.width - 220))}px`;
    box.style.top = `${Math.max(4, Math.min(y + 8, wrap.height - 40 * (texts.length + 1)))}px`;
    box.hidden = false;
  }

  hidePopup() {
    if (this.popup) this.popup.hidden = true;
  }

  // --- the SVG -----------------------------------------------------------------------

  buildSvg() {
    const geo = this.geometry;
    const [x0, y0, w, hgt] = geo.viewBox;
    this.full = { x: x0, y: y0, w, h: hgt };
    this.zoom = { ...this.full };
    const svg = s("svg", { class: ["map", geo.schematic && "schematic"], viewBox: `${x0} ${y0} ${w} ${hgt}`, role: "img", "aria-label": "the board", id: "map" });
    svg.append(s("rect", { x: x0, y: y0, width: w, height: hgt, class: "sea-bg" }));
    const decor = s("g", { class: "decor" });
    for (const d of geo.decor || []) decor.append(s("path", { d: d.path, class: `decor-${d.kind}` }, d.name ? s("title", {}, d.name) : null));
    this.provLayer = s("g", { class: "provinces" });
    this.provEls = new Map();
    for (const [code, p] of Object.entries(geo.provinces)) {
      const anchor = p.unit || p.label || [0, 0];
      const el = s("path", { d: p.path, class: ["prov", `kind-${p.kind}`], dataset: { prov: code, x: anchor[0], y: anchor[1] } }, s("title", {}, p.name ? `${p.name} (${code})` : code));
      el.addEventListener("click", (event) => {
        if (this.dragged) return;
        this.clickProvince(code, event);
      });
      this.provEls.set(code, el);
      this.provLayer.append(el);
    }
    this.centreLayer = s("g", { class: "centres" });
    this.labelLayer = s("g", { class: "labels" });
    this.labelEls = new Map();
    for (const [code, p] of Object.entries(geo.provinces)) {
      if (!p.label || p.kind === "impassable") continue;
      const el = s("text", { x: p.label[0], y: p.label[1], class: ["label", `label-${p.kind}`], dataset: { labels: code } }, code);
      this.labelEls.set(code, el);
      this.labelLayer.append(el);
    }
    this.orderLayer = s("g", { class: "orders" });
    this.unitLayer = s("g", { class: "units" });
    this.markLayer = s("g", { class: "marks" });
    svg.append(decor, this.provLayer, this.centreLayer, this.labelLayer, this.orderLayer, this.unitLayer, this.markLayer);
    this.svg = svg;
    this.enablePanZoom(svg);
    const zoomButtons = h(
      "div",
      { class: "zoom" },
      h("button", { type: "button", title: "zoom in", "aria-label": "zoom in", onClick: () => this.zoomBy(0.7) }, "+"),
      h("button", { type: "button", title: "zoom out", "aria-label": "zoom out", onClick: () => this.zoomBy(1 / 0.7) }, "−"),
      h("button", { type: "button", title: "whole map", "aria-label": "whole map", onClick: () => this.setZoom({ ...this.full }) }, "⤢"),
      h("button", { type: "button", title: "my units", "aria-label": "zoom to my units", id: "zoom-mine", onClick: () => this.zoomToMine() }, "◎"),
    );
    this.svgBox.style.setProperty("--ratio", String(w / hgt));
    fill(this.svgBox, svg, zoomButtons);
    // On a phone the whole of Europe is too small to tap: start around one's own units.
    if (this.svgBox.clientWidth && this.svgBox.clientWidth < 600) this.zoomToMine();
  }

  enablePanZoom(svg) {
    let start = null;
    svg.addEventListener("pointerdown", (event) => {
      if (event.button !== 0) return;
      start = { x: event.clientX, y: event.clientY, zoom: { ...this.zoom } };
      this.dragged = false;
    });
    svg.addEventListener("pointermove", (event) => {
      if (!start) return;
      const dx = event.clientX - start.x;
      const dy = event.clientY - start.y;
      if (!this.dragged && Math.hypot(dx, dy) < 6) return;
      if (start.zoom.w >= this.full.w) return;  // nothing to pan at full size
      this.dragged = true;
      const scale = start.zoom.w / svg.getBoundingClientRect().width;
      this.setZoom({ ...start.zoom, x: start.zoom.x - dx * scale, y: start.zoom.y - dy * scale });
    });
    const end = () => {
      start = null;
      setTimeout(() => (this.dragged = false), 0);
    };
    svg.addEventListener("pointerup", end);
    svg.addEventListener("pointerleave", end);
    svg.addEventListener(
      "wheel",
      (event) => {
        if (!event.ctrlKey && !event.metaKey && !event.altKey) return;  // plain scrolling scrolls the page
        event.preventDefault();
        this.zoomBy(event.deltaY > 0 ? 1.15 : 0.87);
      },
      { passive: false },
    );
  }

  zoomToMine() {
    const state = this.ctx.state;
    const seat = this.ctx.mySeat();
    if (!state || seat === null || !this.geometry) return;
    const power = this.powerNames()[seat];
    const pos = this.obsView().position;
    const points = [...(pos.units[power] || []), ...((pos.dislodged || {})[power] || [])]
      .map((t) => readUnit(t))
      .filter(Boolean)
      .map((u) => this.anchor(u.loc))
      .filter(Boolean);
    if (!points.length) return;
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    const f = this.full;
    const pad = f.w * 0.08;
    let w = Math.max(Math.max(...xs) - Math.min(...xs) + 2 * pad, f.w * 0.45);
    let hh = (w / f.w) * f.h;
    const needH = Math.max(...ys) - Math.min(...ys) + 2 * pad;
    if (needH > hh) {
      hh = Math.min(needH, f.h);
      w = (hh / f.h) * f.w;
    }
    const cx = (Math.max(...xs) + Math.min(...xs)) / 2;
    const cy = (Math.max(...ys) + Math.min(...ys)) / 2;
    this.setZoom({ x: cx - w / 2, y: cy - hh / 2, w: Math.min(w, f.w), h: Math.min(hh, f.h) });
  }

  zoomBy(factor) {
    const z = this.zoom;
    const w = Math.min(this.full.w, Math.max(this.full.w / 6, z.w * factor));
    const hh = (w / this.full.w) * this.full.h;
    this.setZoom({ x: z.x + (z.w - w) / 2, y: z.y + (z.h - hh) / 2, w, h: hh });
  }

  setZoom(z) {
    const f = this.full;
    z.x = Math.max(f.x, Math.min(z.x, f.x + f.w - z.w));
    z.y = Math.max(f.y, Math.min(z.y, f.y + f.h - z.h));
    this.zoom = z;
    this.svg.setAttribute("viewBox", `${z.x} ${z.y} ${z.w} ${z.h}`);
  }

  anchor(loc) {
    const p = this.geometry.provinces[province(loc)];
    if (!p) return null;
    const coastName = String(loc).split("/")[1];
    if (coastName && p.coasts && p.coasts[coastName]) return p.coasts[coastName];
    return p.unit || p.label;
  }

  draw() {
    if (!this.svg || !this.ctx.state) return;
    const pos = this.position();
    const names = this.powerNames();
    const owner = new Map();
    for (const [power, centres] of Object.entries(pos.centres || {})) for (const c of centres) owner.set(province(c), this.powerIndex(power));
    // Provinces: supply centres take their owner's colour.
    for (const [code, el] of this.provEls) {
      const seat = owner.get(code);
      el.style.fill = seat !== undefined && seat >= 0 ? tint(this.seatColour(seat), FILL_TINT) : "";
      if (seat !== undefined && seat >= 0) el.dataset.owner = names[seat];  // who holds it, for tools
      else delete el.dataset.owner;
      el.classList.remove("selected", "target", "selectable", "contested");
    }
    for (const c of pos.contested || []) this.provEls.get(province(c))?.classList.add("contested");
    // Supply-centre markers.
    const centres = [];
    for (const [code, p] of Object.entries(this.geometry.provinces)) {
      if (!p.centre) continue;
      const seat = owner.get(code);
      const colour = seat !== undefined && seat >= 0 ? this.seatColour(seat) : "#fdfaf2";
      centres.push(s("circle", { cx: p.centre[0], cy: p.centre[1], r: 6.5, class: "sc", style: { fill: colour } }, s("title", {}, `supply centre ${code}${seat !== undefined ? ` (${names[seat]})` : " (neutral)"}`)));
      centres.push(s("circle", { cx: p.centre[0], cy: p.centre[1], r: 2.2, class: "sc-dot" }));
    }
    fill(this.centreLayer, centres);
    // Units, dislodged ones a little aside.
    const units = [];
    for (const [power, list] of Object.entries(pos.units || {})) {
      for (const text of list) units.push(this.unitIcon(text, this.powerIndex(power), false));
    }
    for (const [power, list] of Object.entries(pos.dislodged || {})) {
      for (const text of list) units.push(this.unitIcon(text, this.powerIndex(power), true));
    }
    fill(this.unitLayer, units);
    this.placeLabels(pos);
    // Orders: the results of the phase viewed, or the draft being written.
    const arrows = [];
    const past = this.shownPast();
    const results = past ? past.results : this.showResults && !this.draft.size ? this.lastResults() : null;
    if (results) {
      for (const [power, list] of Object.entries(results)) {
        for (const r of list) arrows.push(this.orderShape(r.order, this.powerIndex(power), r));
      }
    } else if (!past) {
      const me = this.ctx.mySeat();
      for (const v of this.draft.values()) arrows.push(this.orderShape(v.action, me, null));
    }
    fill(this.orderLayer, arrows);
    // Selection and the provinces a click may pick next.
    if (!this.viewing && this.tree()) {
      if (!this.selected) {
        const selectable = this.isAdjustment() ? this.adjustmentProvinces() : this.orderGroups().map((g) => province(g.key));
        for (const p of selectable) this.provEls.get(p)?.classList.add("selectable");
      } else {
        this.provEls.get(this.selected.prov)?.classList.add("selected");
        const readLeaves = leaves(this.selected.group.node).map((l) => readOrder(l.action)).filter(Boolean);
        const cands = candidates(readLeaves, this.mode, this.clicks);
        for (const p of nextTargets(cands, this.clicks)) this.provEls.get(p)?.classList.add("target");
        for (const p of this.clicks) this.provEls.get(p)?.classList.add("selected");
      }
    }
    this.svg.dataset.phase = pos.phase;
    this.drawToolbar();
    this.drawModeBar();
    this.drawLegend();
  }

  lastResults() {
    const last = this.obsView().last || [];
    if (!last.length) return null;
    return last[0].results;
  }

  adjustmentProvinces() {
    const out = new Set();
    for (const l of this.optionLeaves()) {
      const o = readOrder(l.action);
      if (o && o.loc) out.add(province(o.loc));
    }
    return out;
  }

  /** A province's name moves just below a unit that would cover it, and back when it leaves. */
  placeLabels(pos) {
    if (!this.labelEls) return;
    const covered = new Map();
    const reach = 13 * this.unitScale();  // about the icon's half-size
    for (const list of Object.values(pos.units || {})) {
      for (const text of list) {
        const u = readUnit(text);
        const at = u && this.anchor(u.loc);
        const p = u && this.geometry.provinces[province(u.loc)];
        if (!at || !p || !p.label) continue;
        // The label's box (about 24 by 12) overlaps the icon's (2 × reach square).
        if (Math.abs(p.label[0] - at[0]) < reach + 12 && Math.abs(p.label[1] - at[1]) < reach + 6) covered.set(province(u.loc), at);
      }
    }
    for (const [code, el] of this.labelEls) {
      const p = this.geometry.provinces[code];
      const at = covered.get(code);
      el.setAttribute("x", String(at ? at[0] : p.label[0]));
      el.setAttribute("y", String(at ? at[1] + reach + 6 : p.label[1]));
      el.classList.toggle("moved", Boolean(at));
    }
  }

  unitIcon(text, seat, dislodged) {
    const u = readUnit(text);
    if (!u) return null;
    const at = this.anchor(u.loc);
    if (!at) return null;
    const [x, y] = dislodged ? [at[0] + 14, at[1] + 12] : at;
    const colour = seat >= 0 ? this.seatColour(seat) : "#999";
    const g = s(
      "g",
      { class: ["unit", `unit-${u.unit === "A" ? "army" : "fleet"}`, dislodged && "dislodged"], transform: `translate(${x} ${y}) scale(${this.unitScale()})`, dataset: { loc: u.loc, unit: u.unit, power: seat } },
      dislodged ? s("circle", { r: 15, class: "dislodged-ring" }) : null,
      s("path", { d: u.unit === "A" ? ARMY_ICON : FLEET_ICON, class: "unit-shape", style: { fill: colour } }),
      s("title", {}, `${u.unit === "A" ? "Army" : "Fleet"} ${u.loc} (${this.powerNames()[seat] || "?"})${dislodged ? `, dislodged${u.from && u.from !== "NONE" ? ` from ${u.from}` : ""}` : ""}`),
    );
    g.addEventListener("click", (event) => {
      event.stopPropagation();
      if (this.dragged) return;
      this.clickProvince(province(u.loc), event);
    });
    return g;
  }

  unitScale() {
    return this.geometry.schematic ? 2 : 1.25;
  }

  /** An order drawn as an arrow (or ring, cross...); `result` styles it by outcome. */
  orderShape(text, seat, result) {
    const o = readOrder(text);
    if (!o || !o.loc) return null;
    const from = this.anchor(o.loc);
    if (!from) return null;
    const colour = seat !== null && seat >= 0 ? this.seatColour(seat) : "#333";
    const outcome = result ? result.outcome : "draft";
    const cls = ["order", `order-${o.kind}`, `outcome-${outcome}`];
    const title = result ? `${result.order}: ${result.message}` : `${o.text} (not yet adjudicated)`;
    const g = s("g", { class: cls, style: { "--power": colour }, dataset: { order: o.text } }, s("title", {}, title));
    const line = (a, b, extra) => s("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: extra });
    switch (o.kind) {
      case "hold":
        g.append(s("circle", { cx: from[0], cy: from[1], r: 17, class: "hold-ring" }));
        break;
      case "move":
      case "retreat": {
        const to = this.anchor(o.dst);
        if (!to) return null;
        g.append(...this.arrow(from, to, o.kind === "retreat" ? "retreat-line" : "move-line"));
        break;
      }
      case "support": {
        const target = this.anchor(o.target.loc);
        if (!target) return null;
        if (o.dst) {
          const to = this.anchor(o.dst);
          if (!to) return null;
          // From the supporter to the supported move's destination, ending on it.
          const [p, q] = shorten(from, to, 10, 6);
          g.append(line(p, q, "support-line"), s("circle", { cx: q[0], cy: q[1], r: 4, class: "support-end" }));
        } else {
          g.append(line(shorten(from, target, 12, 18)[0], shorten(from, target, 12, 18)[1], "support-line"), s("circle", { cx: target[0], cy: target[1], r: 17, class: "support-ring" }));
        }
        break;
      }
      case "convoy": {
        const army = this.anchor(o.army);
        const to = this.anchor(o.dst);
        if (!army || !to) return null;
        g.append(s("polyline", { points: `${army[0]},${army[1]} ${from[0]},${from[1]} ${to[0]},${to[1]}`, class: "convoy-line" }), s("circle", { cx: from[0], cy: from[1], r: 17, class: "convoy-ring" }));
        break;
      }
      case "disband":
        g.append(line([from[0] - 11, from[1] - 11], [from[0] + 11, from[1] + 11], "disband-x"), line([from[0] - 11, from[1] + 11], [from[0] + 11, from[1] - 11], "disband-x"));
        break;
      case "build":
        g.append(s("circle", { cx: from[0], cy: from[1], r: 17, class: "build-ring" }), s("path", { d: o.unit === "A" ? ARMY_ICON : FLEET_ICON, transform: `translate(${from[0]} ${from[1]})`, class: "build-ghost", style: { fill: colour } }));
        break;
      default:
        return null;
    }
    if (result && result.outcome !== "succeeds") {
      const mark = o.dst ? this.anchor(o.dst) || from : from;
      const at = o.kind === "move" || o.kind === "retreat" ? shorten(from, mark, 0, 16)[1] : [from[0] + 12, from[1] - 12];
      g.append(s("g", { class: "fail-mark", transform: `translate(${at[0]} ${at[1]})` }, s("circle", { r: 8.5 }), s("path", { d: "M -4 -4 L 4 4 M -4 4 L 4 -4" })));
    }
    return g;
  }

  arrow(a, b, cls) {
    // The head's tip stops just short of the destination's anchor however near it is, and
    // the head shrinks on short hops, so an arrow between neighbours is never a stub.
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
    const [p, q] = shorten(a, b, Math.min(10, len * 0.15), Math.min(5, len * 0.08));
    const angle = Math.atan2(q[1] - p[1], q[0] - p[0]);
    const head = Math.min(14, len * 0.3);
    const left = [q[0] - head * Math.cos(angle - 0.45), q[1] - head * Math.sin(angle - 0.45)];
    const right = [q[0] - head * Math.cos(angle + 0.45), q[1] - head * Math.sin(angle + 0.45)];
    const end = [q[0] - head * 0.6 * Math.cos(angle), q[1] - head * 0.6 * Math.sin(angle)];
    return [
      s("line", { x1: p[0], y1: p[1], x2: end[0], y2: end[1], class: "casing" }),
      s("line", { x1: p[0], y1: p[1], x2: end[0], y2: end[1], class: cls }),
      s("polygon", { points: `${q[0]},${q[1]} ${left[0]},${left[1]} ${right[0]},${right[1]}`, class: `${cls}-head`, dataset: { tip: `${q[0]},${q[1]}` } }),
    ];
  }

  // --- around the map ----------------------------------------------------------------

  drawToolbar() {
    const items = this.timeline();
    const found = this.viewedItem();
    const i = found ? items.findIndex((it) => this.sameItem(it, found.item)) : items.length - 1;
    const select = h(
      "select",
      { class: "phase-select", id: "phase-select", "aria-label": "phase shown", onChange: (e) => this.goTo(items.find((it) => this.itemValue(it) === e.target.value)) },
      items.map((it, k) => h("option", { value: this.itemValue(it), selected: k === i }, this.itemLabel(it, k))),
    );
    const tools = [
      h("button", { type: "button", class: "small", id: "phase-prev", disabled: i <= 0, title: "earlier phase", onClick: () => this.goTo(items[i - 1]) }, "◀"),
      select,
      h("button", { type: "button", class: "small", id: "phase-next", disabled: i < 0 || i >= items.length - 1, title: "later phase", onClick: () => this.goTo(items[i + 1]) }, "▶"),
    ];
    if (!this.viewing && this.lastResults()) {
      tools.push(
        h(
          "label",
          { class: "inline small toggle" },
          h("input", {
            type: "checkbox",
            id: "show-results",
            checked: this.showResults && !this.draft.size,
            disabled: this.draft.size > 0,
            onChange: (e) => {
              this.showResults = e.target.checked;
              this.draw();
            },
          }),
          "last results on the map",
        ),
      );
    }
    const past = this.shownPast();
    if (past) tools.push(h("span", { class: "history-note", id: "history-note" }, this.pastNote(past)));
    fill(this.toolbar, tools);
  }

  pastNote(past) {
    const loading = [past.item.seq, past.next && past.next.seq].some((seq) => seq !== null && seq !== undefined && this.past.has(seq) && !this.pastViews.has(seq));
    if (past.position && past.blocks) return "Earlier phase: orders and results as adjudicated";
    if (loading) return "Earlier phase: loading it from the server…";
    if (past.item.stateId !== null && this.failed !== null && this.failed !== undefined) return "Earlier phase: it could not be loaded; the current board is shown (pick it again to retry)";
    if (!past.position) return "Earlier phase: its board was not seen in this browser; the current board is shown";
    return "Earlier phase: its board as it began";
  }

  drawModeBar() {
    const bar = this.modeBar;
    if (this.viewing || !this.tree()) {
      const waiting = this.waitingText();
      fill(bar, h("span", { class: "muted" }, waiting));
      return;
    }
    if (this.isAdjustment()) {
      const builds = this.optionLeaves().some((l) => (readOrder(l.action) || {}).kind === "build");
      fill(bar, h("span", {}, builds ? "Click one of your open home centres to build there (click again to undo)." : "Click a unit to disband it (click again to undo)."));
      return;
    }
    if (!this.selected) {
      fill(bar, h("span", {}, "Click one of your units to give it an order."));
      return;
    }
    const kinds = new Set(leaves(this.selected.group.node).map((l) => (readOrder(l.action) || {}).kind));
    const modeButton = (mode, label, key) =>
      kinds.has(MODE_KINDS[mode][0]) || (mode === "move" && kinds.has("retreat"))
        ? h("button", { type: "button", class: ["mode", this.mode === mode && "active"], id: `mode-${mode}`, title: `${label} (${key})`, onClick: () => this.setMode(mode) }, label)
        : null;
    const kindButton = (kind, label) => (kinds.has(kind) ? h("button", { type: "button", class: "mode", id: `order-${kind}`, onClick: () => this.pickKind(kind) }, label) : null);
    const step = this.clicks.length
      ? this.mode === "support"
        ? `Supporting ${this.clicks[0]}: click where it moves, or ${this.clicks[0]} again to support it holding.`
        : `Convoying the army in ${this.clicks[0]}: click its destination.`
      : this.mode === "support"
        ? "Click the unit to support."
        : this.mode === "convoy"
          ? "Click the army to convoy."
          : kinds.has("retreat")
            ? "Click where it retreats."
            : "Click where it moves.";
    fill(
      bar,
      h("strong", {}, this.selected.group.label),
      kindButton("hold", "Hold"),
      modeButton("move", kinds.has("retreat") ? "Retreat" : "Move", "m"),
      modeButton("support", "Support", "s"),
      modeButton("convoy", "Convoy", "c"),
      kindButton("disband", "Disband"),
      h("button", { type: "button", class: "mode", onClick: () => this.deselect() }, "Cancel"),
      h("span", { class: "muted step" }, step),
    );
  }

  waitingText() {
    const obs = this.ctx.state.observation;
    if (this.ctx.summary.status !== "active") return "";
    const talk = this.ctx.state.negotiation;
    if (talk && talk.round) return `Negotiation round ${talk.round} of ${talk.rounds} is on: orders open after round ${talk.rounds}. Talk in the Chat meanwhile.`;
    // Who is still to say they are done (the server's `table`; a ready power is not waited for).
    const table = this.ctx.state.table || { waiting: obs.turn.owed.map((o) => o.seat), done: [] };
    const owed = table.waiting.map((seat) => titleCase(obs.seats[seat]));
    const me = this.ctx.mySeat();
    if (me === null) return owed.length ? `Waiting for orders from ${owed.join(", ")}.` : "";
    const mine = obs.turn.owed.some((o) => o.seat === me) || obs.turn.anytime.includes(me);
    if (!mine) return owed.length ? `You have nothing to order this phase. Waiting for ${owed.join(", ")}.` : "";
    return "";
  }

  drawLegend() {
    const obs = this.ctx.state.observation;
    const pos = this.obsView().position;
    const submitted = new Set(this.obsView().submitted || []);
    const table = this.ctx.state.table || { waiting: obs.turn.owed.map((o) => o.seat), done: [] };
    const waiting = new Set(table.waiting);
    const done = new Set(table.done);
    const seats = this.ctx.summary.seats || [];
    fill(
      this.legend,
      obs.seats.map((power, i) => {
        const centres = (pos.centres[power] || []).length;
        const units = (pos.units[power] || []).length;
        const talking = Boolean(this.ctx.state.negotiation && this.ctx.state.negotiation.round);
        // Done or not, never what: "✓ ready" once the power's player said so.
        const status = submitted.has(power) ? "✓ orders in" : talking ? "" : done.has(i) ? "✓ ready" : waiting.has(i) ? "ordering…" : "";
        const adj = (this.obsView().adjustments || {})[power];
        return h(
          "div",
          { class: ["power", i === this.ctx.mySeat() && "me"], dataset: { power } },
          h("span", { class: "swatch", style: { background: this.seatColour(i) } }),
          h("span", { class: "power-name" }, titleCase(power)),
          h("span", { class: "power-player muted" }, seats[i] && seats[i].player ? seats[i].player : ""),
          h("span", { class: "power-count", title: "supply centres · units" }, `${centres} SC · ${units} u${adj ? ` · ${adj > 0 ? `+${adj}` : adj}` : ""}`),
          h("span", { class: ["power-status", (submitted.has(power) || done.has(i)) && "done"] }, status),
        );
      }),
    );
  }

  // --- the side panel ----------------------------------------------------------------

  drawOrdersTab() {
    // Redrawn on every update: keep the player's place (the field being typed in).
    const active = document.activeElement;
    const focusId = active && this.orderTab.contains(active) ? active.id || (active.dataset && active.dataset.group) : null;
    this.drawOrdersTabNow();
    if (focusId) {
      const again = document.getElementById(focusId) || this.orderTab.querySelector(`select[data-group="${CSS.escape(focusId)}"]`);
      if (again) again.focus();
    }
  }

  drawOrdersTabNow() {
    const el = this.orderTab;
    const state = this.ctx.state;
    if (!state) return;
    const view = this.obsView();
    const power = state.viewer.seat !== null ? state.observation.seats[state.viewer.seat] : null;
    const when = this.finished() ? "game over" : phaseTitle(view.position.phase);
    const head = h("div", { class: "orders-head" }, h("h3", {}, power ? `${titleCase(power)} — ${when}` : when));
    if (!this.tree()) {
      const over = this.finished() ? "The game is over: there is nothing more to order. The last orders are in Results." : null;
      const note = over || (power === null ? "Spectators see the orders once each phase is adjudicated (Results)." : this.waitingText() || "Nothing to order now.");
      fill(el, head, h("p", { class: "muted" }, note), this.submittedText ? this.submittedList() : null);
      return;
    }
    const gs = this.orderGroups();
    const rows = gs.map((g) => {
      const chosen = this.draft.get(g.key);
      const choices = leaves(g.node);
      const select = h(
        "select",
        {
          class: "order-select",
          dataset: { group: g.key },
          "aria-label": `order for ${g.label}`,
          onChange: (e) => {
            if (!e.target.value) this.removeDraft(g.key);
            else {
              this.draft.set(g.key, { action: e.target.value });
              this.saveDraft();
              this.refreshOrders();
            }
          },
        },
        h("option", { value: "" }, this.isRetreat() || this.isAdjustment() ? "— none —" : "— no order (holds) —"),
        choices.map((l) => h("option", { value: l.action, selected: chosen && normalise(chosen.action) === normalise(l.action) }, l.label)),
        chosen && chosen.typed ? h("option", { value: chosen.action, selected: true }, `${chosen.action} (typed)`) : null,
      );
      return h(
        "li",
        { class: ["order-row", chosen && "has-order"], dataset: { group: g.key } },
        h("span", { class: "order-unit", role: "button", tabindex: 0, onClick: () => this.focusGroup(g) }, g.label),
        select,
        chosen ? h("button", { type: "button", class: "remove", title: "remove this order (the unit holds)", "aria-label": `remove the order of ${g.label}`, onClick: () => this.removeDraft(g.key) }, "×") : h("span", { class: "remove-space" }),
      );
    });
    // A typed order the game does not take is explained right under its box, not far away.
    const typedError = this.typedError ? h("p", { class: "form-error", id: "order-text-error", role: "alert" }, this.typedError) : null;
    const typed = h("input", { id: "order-text", placeholder: "type an order, e.g. A PAR - BUR", autocomplete: "off", spellcheck: "false", value: this.typedText || "", "aria-label": "type an order", "aria-invalid": String(Boolean(typedError)), "aria-describedby": typedError ? "order-text-error" : null });
    typed.addEventListener("input", () => (this.typedText = typed.value));
    const addTyped = () => {
      const texts = typed.value.split(/[;\n]/).map((t) => t.trim()).filter(Boolean);
      const bad = [];
      for (const t of texts) {
        if (!this.assign(t)) bad.push(t);
      }
      this.typedError = bad.length ? `Not among your legal orders now: ${bad.join("; ")}. Write them as the list shows them (e.g. “A PAR - BUR”).` : "";
      this.typedText = bad.join("; ");
      this.refreshOrders();
      const again = document.getElementById("order-text");
      if (again) again.focus();
    };
    typed.addEventListener("keydown", (e) => {
      if (e.key === "Enter") {
        e.preventDefault();
        addTyped();
      }
    });
    const count = this.draft.size;
    let status;
    if (this.saved.enabled && !this.submittedText) status = this.savedStatus();
    else if (this.submittedText && this.draftMatchesSubmitted()) status = h("p", { class: "submitted ok", id: "order-status" }, "✓ Submitted. You may still change them until every power has submitted.");
    else if (this.submittedText) status = h("p", { class: "submitted changed", id: "order-status" }, "You changed your orders since you submitted: submit again.");
    else status = h("p", { class: "submitted pending", id: "order-status" }, "Not submitted yet.");
    const owedCount = this.isAdjustment() ? gs.length : gs.length;
    fill(
      el,
      head,
      h("p", { class: "muted small" }, `${count} of ${owedCount} ${this.isAdjustment() ? "chosen" : "units ordered"}; ${this.defaultText()} Click the map, or use the lists.`),
      h("ul", { class: "order-list", id: "order-list" }, rows),
      h("div", { class: "row typed" }, typed, h("button", { type: "button", id: "order-add", onClick: addTyped }, "Add")),
      typedError,
      status,
      this.submitError ? h("p", { class: "form-error", id: "order-error", role: "alert" }, this.submitError) : null,
      h(
        "div",
        { class: "row" },
        this.saved.enabled && !this.submittedText
          ? h("button", { type: "button", class: ["primary", this.saved.ready && "is-ready"], id: "submit-orders", "aria-pressed": String(this.saved.ready), disabled: Boolean(this.submitting), onClick: () => this.toggleReady() }, this.saved.ready ? "✓ Ready (click: not yet)" : "Ready")
          : h("button", { type: "button", class: "primary", id: "submit-orders", disabled: Boolean(this.submitting), onClick: () => this.submit() }, this.submittedText ? "Submit again" : "Submit orders"),
        h("button", { type: "button", id: "clear-orders", disabled: !count, onClick: () => { this.draft.clear(); this.saveDraft(); this.refreshOrders(); } }, "Clear"),
      ),
    );
  }

  savedStatus() {
    const saved = this.saved;
    if (saved.error) return h("p", { class: "submitted changed", id: "order-status", role: "alert" }, `Not saved: ${saved.error}`);
    const stored = saved.server.size;
    if (saved.ready) return h("p", { class: "submitted ok", id: "order-status" }, `✓ Ready. Submitted for adjudication once every power is ready; until then you may still change your orders (${stored} saved).`);
    if (stored) return h("p", { class: "submitted pending", id: "order-status" }, `${stored} order${stored === 1 ? "" : "s"} saved: they count at the deadline even if you do not say you are ready.`);
    return h("p", { class: "submitted pending", id: "order-status" }, "Nothing saved yet: orders are saved as you enter them. Say you are ready when you are done.");
  }

  submittedList() {
    return h("div", {}, h("h4", {}, "Your submitted orders"), h("ul", { class: "plain" }, this.submittedText.length ? this.submittedText.map((t) => h("li", {}, t)) : h("li", {}, "no orders: every unit holds")));
  }

  focusGroup(group) {
    if (this.viewing) return;
    if (this.isAdjustment()) return;
    this.select(group);
  }

  drawResultsTab() {
    const el = this.resultsTab;
    const view = this.obsView();
    const past = this.shownPast();
    let blocks;
    if (past) {
      const note = this.pastNote(past).includes("loading") ? "Loading from the server…" : "Not known in this browser.";
      blocks = past.blocks && past.blocks.length ? past.blocks.map((b) => this.resultsBlock(b.phase, b.results)) : [this.resultsBlock(past.phase || "", null, note)];
    } else {
      blocks = (view.last || []).map((phase) => this.resultsBlock(phase.phase, phase.results));
    }
    if (!blocks.length || blocks.every((b) => !b)) {
      blocks = [h("p", { class: "muted" }, "No phase has been adjudicated yet. Results appear here, with the reason for every failed order, as soon as all orders are in.")];
    }
    const ended = view.ended;
    const items = this.timeline();
    const shown = past ? past.item : items[items.length - 1];
    fill(
      el,
      ended ? h("div", { class: "banner banner-info" }, ended.winner ? `${titleCase(ended.winner)} has won: ${ended.reason}.` : `Draw: ${ended.reason}.`) : null,
      blocks,
      h("h4", {}, "Phases"),
      h(
        "ol",
        { class: "phase-list", id: "phase-list" },
        items.map((it, k) =>
          h(
            "li",
            {},
            h(
              "button",
              {
                type: "button",
                class: ["linkish", this.sameItem(it, shown) && "active"],
                dataset: { phase: this.itemValue(it) },
                onClick: () => this.goTo(it),
              },
              this.itemLabel(it, k),
            ),
          ),
        ),
      ),
    );
  }

  resultsBlock(phase, results, note = "Not known in this browser.") {
    if (!results) return h("div", { class: "results" }, h("h3", {}, phase ? `Results of ${phaseTitle(phase)}` : "Results"), h("p", { class: "muted" }, note));
    const powers = Object.keys(results);
    return h(
      "div",
      { class: "results", dataset: { phase } },
      h("h3", {}, `Results of ${phaseTitle(phase)}`),
      powers.map((power) =>
        h(
          "div",
          { class: "results-power" },
          h("h4", {}, h("span", { class: "swatch", style: { background: this.seatColour(this.powerIndex(power)) } }), titleCase(power)),
          h(
            "ul",
            { class: "result-list" },
            results[power].map((r) =>
              h(
                "li",
                { class: ["result", `outcome-${r.outcome}`], dataset: { order: r.order, outcome: r.outcome, reason: r.reason } },
                h("span", { class: "result-icon", "aria-hidden": "true" }, r.outcome === "succeeds" ? "✓" : r.outcome === "fails" ? "✗" : "⊘"),
                h("span", { class: "result-order" }, r.order, r.defaulted ? h("span", { class: "muted" }, " (no order given)") : null),
                h("span", { class: "result-message" }, r.message),
              ),
            ),
          ),
        ),
      ),
    );
  }
}

/** The segment a→b with `da` cut from its start and `db` from its end. */
function shorten(a, b, da, db) {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len = Math.hypot(dx, dy) || 1;
  const ux = dx / len;
  const uy = dy / len;
  const cutA = Math.min(da, len / 3);
  const cutB = Math.min(db, len / 3);
  return [
    [a[0] + ux * cutA, a[1] + uy * cutA],
    [b[0] - ux * cutB, b[1] - uy * cutB],
  ];
}
