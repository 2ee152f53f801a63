// Every moment of a game: a bar over the board that steps back and forth through the states
// the server has recorded (`/steps`, `/state?at=`), showing each on the board as the viewer
// could see it then, with what led to it: the actions of the step before and the game's own
// event lines (dice, combats, captures) that appeared with it. The board is drawn by the
// game's own renderer from the past observation; nothing can be played on it.
//
// Games whose renderer keeps a history of its own (Diplomacy's phases) do without the bar.

import { api } from "./api.js";
import { fill, h } from "./dom.js";

/** The game's public event lines in an observation's view, oldest first, as text. */
export function eventLines(view) {
  if (!view) return [];
  const raw = Array.isArray(view.log) ? view.log : Array.isArray(view.events) ? view.events : Array.isArray(view.recent) ? view.recent : [];
  return raw.map((e) => (typeof e === "string" ? e : e && typeof e.text === "string" ? e.text : "")).filter(Boolean);
}

/** The lines of `after` that `before` did not end with (both are windows on one stream). */
export function newLines(before, after) {
  for (let k = Math.min(before.length, after.length); k > 0; k--) {
    let same = true;
    for (let i = 0; i < k; i++) {
      if (before[before.length - k + i] !== after[i]) {
        same = false;
        break;
      }
    }
    if (same) return after.slice(k);
  }
  return after.slice();
}

export class HistoryBar {
  constructor(view) {
    this.view = view;  // the GameView
    this.steps = null;  // [{state_id, seq}], oldest first
    this.stepsFor = null;  // the live state id they were read at
    this.index = null;  // the step shown; null: now
    this.cache = new Map();  // seq -> past state (StateOut)
    this.el = h("div", { class: "history-bar", id: "history", role: "group", "aria-label": "Earlier moments of the game" });
  }

  element() {
    return this.el;
  }

  /** The past state the board shows, or null when it shows the present. */
  shown() {
    if (this.index === null || !this.steps) return null;
    return this.cache.get(this.steps[this.index].seq) || null;
  }

  async loadSteps() {
    const live = this.view.state;
    if (!live) return;
    if (this.steps && this.stepsFor === live.state_id) return;
    const out = await api.steps(this.view.gameId);
    if (!out || !Array.isArray(out.steps)) return;
    const seen = new Set();
    this.steps = [...out.steps].sort((a, b) => a.seq - b.seq).filter((st) => !seen.has(st.seq) && seen.add(st.seq));
    if (!this.steps.length || this.steps[0].seq !== 0) this.steps.unshift({ state_id: 0, seq: 0 });
    // The present has no entry yet when nobody has acted in it: it is the last moment.
    // (Messages and draw votes are entries that leave the state as it is.)
    const lastStep = this.steps[this.steps.length - 1];
    if (lastStep.seq < live.seq && lastStep.state_id !== live.state_id) this.steps.push({ state_id: live.state_id, seq: live.seq });
    this.stepsFor = live.state_id;
  }

  async fetchAt(seq) {
    if (!this.cache.has(seq)) this.cache.set(seq, await api.stateAt(this.view.gameId, seq));
    return this.cache.get(seq);
  }

  /** Show step `index` (clamped); the last step is the present. */
  async go(index) {
    if (this.loading) return;
    this.loading = true;  // one move at a time: the buttons wait for it
    this.error = null;
    this.draw();
    try {
      await this.loadSteps();
      if (!this.steps) return;
      const last = this.steps.length - 1;
      const to = Math.max(0, Math.min(index, last));
      if (to >= last || this.view.state.seq <= this.steps[to].seq) {
        this.index = null;
      } else {
        const seq = this.steps[to].seq;
        await this.fetchAt(seq);
        if (to > 0) await this.fetchAt(this.steps[to - 1].seq);
        this.index = to;
      }
    } catch (err) {
      this.error = err.message || String(err);
    } finally {
      this.loading = false;
    }
    this.view.refresh("history");
  }

  async back() {
    if (this.index !== null) return this.go(this.index - 1);
    try {
      await this.loadSteps();
    } catch (err) {
      this.error = err.message || String(err);
    }
    return this.steps ? this.go(this.steps.length - 2) : this.view.refresh("history");
  }

  forward() {
    return this.index === null ? Promise.resolve() : this.go(this.index + 1);
  }

  now() {
    this.index = null;
    this.view.refresh("history");
  }

  /** The actions that led to step `index` and the event lines that came with it. */
  happened(index) {
    if (!this.steps || index <= 0) return [];
    const from = this.steps[index - 1].seq;
    const to = this.steps[index].seq;
    const out = [];
    for (const entry of this.view.entryList()) {
      if (entry.seq < from || entry.seq >= to || !["action", "takeback"].includes(entry.type)) continue;
      const who = this.view.seatLabel(entry.seat);
      if (entry.type === "takeback") {
        out.push({ kind: "action", text: `${who} took back #${entry.of}` });
        continue;
      }
      out.push({ kind: "action", text: entry.hidden ? `${who} acted (hidden until the step resolved)` : `${who}: ${entry.notation}${entry.auto ? " (default, chosen for the seat)" : ""}` });
    }
    const before = this.cache.get(from);
    const after = this.cache.get(to);
    if (before && after) {
      for (const line of newLines(eventLines(before.observation.view), eventLines(after.observation.view))) out.push({ kind: "event", text: line });
    }
    return out;
  }

  draw() {
    const live = this.view.state;
    if (!live || live.seq === 0) {
      fill(this.el);
      this.el.hidden = true;
      return;
    }
    this.el.hidden = false;
    const past = this.shown();
    this.el.classList.toggle("past", Boolean(past));
    const last = this.steps ? this.steps.length - 1 : null;
    const at = this.index === null ? last : this.index;
    const parts = [
      h("button", { type: "button", class: "small", id: "history-back", disabled: this.loading || at === 0, onClick: () => this.back() }, "◀ Earlier"),
      h("button", { type: "button", class: "small", id: "history-forward", disabled: this.loading || !past, onClick: () => this.forward() }, "Later ▶"),
    ];
    if (this.steps && last > 0) {
      parts.push(
        h("input", {
          type: "range",
          id: "history-range",
          min: 0,
          max: last,
          value: at,
          "aria-label": "Moment of the game",
          onChange: (e) => this.go(Number(e.target.value)),
        }),
      );
    }
    if (past) {
      parts.push(h("span", { class: "history-label", id: "history-label" }, `Moment ${this.index + 1} of ${last + 1} (after ${past.seq} record entries): nothing can be played here.`));
      parts.push(h("button", { type: "button", class: "small primary", id: "history-now", onClick: () => this.now() }, "Back to now"));
      const happened = this.happened(this.index);
      parts.push(
        h(
          "ol",
          { class: "history-events", id: "history-events", "aria-label": "What led to this moment" },
          happened.length ? happened.map((e) => h("li", { class: e.kind === "event" ? "history-event" : "history-action" }, e.text)) : h("li", { class: "muted" }, this.index === 0 ? "The start of the game." : "Nothing recorded for this step."),
        ),
      );
    } else {
      parts.push(h("span", { class: "history-label muted", id: "history-label" }, this.loading ? "Loading…" : this.error ? `Earlier moments could not be read: ${this.error}` : "Now"));
    }
    fill(this.el, parts);
  }
}
