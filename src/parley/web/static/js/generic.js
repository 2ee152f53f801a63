// Any game without a board of its own: the observation as a readable tree and the
// options tree as buttons (one choice per group when the tree asks for one under each).

import { fill, h } from "./dom.js";
import { SavedOrders } from "./drafts.js";
import { groups, leaves } from "./options.js";

const PALETTE = ["#c8423b", "#3b4fb5", "#3f9b45", "#e0b52b", "#8e5bb6", "#d2742c", "#2a9d8f", "#676a6e"];

function describe(value, depth = 0) {
  if (value === null || value === undefined) return h("span", { class: "muted" }, "—");
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v !== "object" || v === null)) return h("span", {}, value.join(", ") || "—");
    return h("ol", {}, value.map((v) => h("li", {}, describe(v, depth + 1))));
  }
  if (typeof value === "object") {
    return h("dl", { class: "kv" }, Object.entries(value).flatMap(([k, v]) => [h("dt", {}, k.replace(/_/g, " ")), h("dd", {}, describe(v, depth + 1))]));
  }
  return h("span", {}, String(value));
}

export class GenericBoard {
  constructor(ctx) {
    this.ctx = ctx;
    this.choice = new Map();
    this.saved = new SavedOrders(ctx, () => this.update());
  }

  /** Simultaneous steps (and composite decisions) are saved as entered, then marked ready. */
  savesDrafts(state, tree) {
    return this.saved.enabled && Boolean(tree.each || (state.observation.turn && state.observation.turn.simultaneous));
  }

  readyRow() {
    const saved = this.saved;
    const count = saved.server.size;
    let note = "Nothing saved yet: your choices are saved as you make them.";
    if (saved.error) note = `Not saved: ${saved.error}`;
    else if (saved.ready) note = "✓ Ready: submitted once every seat is ready; you may still change your choice.";
    else if (count) note = "Saved: it counts at the deadline even if you do not say you are ready.";
    return h(
      "div",
      { class: "row" },
      h("p", { class: ["submitted", saved.ready ? "ok" : "pending"], id: "order-status" }, note),
      h("button", { type: "button", class: "primary", id: "ready-toggle", "aria-pressed": String(saved.ready), onClick: () => saved.save(() => this.choice, !saved.ready) }, saved.ready ? "✓ Ready (click: not yet)" : "Ready"),
    );
  }

  loadSaved(state) {
    if (this.savedFor === state.state_id) return;
    this.savedFor = state.state_id;
    this.choice = new Map();
    this.saved.load(state.state_id).then((server) => {
      if (server === null || this.savedFor !== state.state_id) return;
      this.choice = new Map(server);
      this.update();
    });
  }

  tabs() {
    return [];
  }

  seatColour(seat) {
    return PALETTE[seat % PALETTE.length];
  }

  headline() {
    return { title: this.ctx.summary.title };
  }

  mountBoard(el) {
    this.options = h("div", { class: "generic-options", id: "generic-options" });
    this.obs = h("div", { class: "generic-view" });
    el.append(this.options, this.obs);
  }

  update() {
    const state = this.ctx.state;
    if (!state) return;
    fill(this.obs, h("h3", {}, "What you see"), describe(state.observation.view));
    const tree = state.can_act ? state.options : null;
    if (!tree) {
      fill(this.options, h("p", { class: "muted" }, "Nothing to decide now."));
      return;
    }
    const gs = groups(tree);
    const drafts = this.savesDrafts(state, tree);
    if (drafts) this.loadSaved(state);
    const choose = (key, action) => {
      if (action) this.choice.set(key, action);
      else this.choice.delete(key);
      if (drafts) this.saved.save(() => this.choice);
    };
    if (tree.each) {
      const selects = gs.map((g) =>
        h("label", { class: "field" }, g.label, h("select", { dataset: { group: g.key }, onChange: (e) => choose(g.key, e.target.value) }, h("option", { value: "" }, "—"), leaves(g.node).map((l) => h("option", { value: l.action, selected: this.choice.get(g.key) === l.action }, l.label)))),
      );
      if (drafts) {
        fill(this.options, h("h3", {}, tree.label), selects, this.readyRow());
        return;
      }
      fill(
        this.options,
        h("h3", {}, tree.label),
        selects,
        h("button", { type: "button", class: "primary", onClick: () => this.ctx.act({ parts: [...this.choice.values()].filter(Boolean) }).catch(() => {}) }, "Submit"),
      );
      return;
    }
    if (drafts) {
      // One choice for the whole decision: kept under the tree's own key until ready.
      const chosen = this.choice.get(tree.key);
      fill(
        this.options,
        h("h3", {}, tree.label),
        gs.map((g) => h("div", { class: "option-group" }, leaves(g.node).map((l) => h("button", { type: "button", class: ["option", chosen === l.action && "chosen"], "aria-pressed": String(chosen === l.action), onClick: () => { choose(tree.key, l.action); this.update(); } }, l.label)))),
        this.readyRow(),
      );
      return;
    }
    fill(
      this.options,
      h("h3", {}, tree.label),
      gs.map((g) => h("div", { class: "option-group" }, leaves(g.node).map((l) => h("button", { type: "button", class: "option", onClick: () => this.ctx.act({ action: l.action }).catch(() => {}) }, l.label)))),
    );
  }
}
