// What waits for the player, told outside the board: the tab's title ("(Your move) (2)
// Parley — orders due in 3 h": the table waits for you, two unread messages), a warning on the page when a deadline draws near and the seat still owes
// (parts without a choice, or not ready), and, once the player allows it, the browser's
// notifications for a new step owing them a decision, press addressed to them and the
// deadline drawing near. Everything comes from the server's state, summary and entries.

import { api } from "./api.js";
import { dialog, h } from "./dom.js";
import { groups } from "./options.js";

const WARN_SECONDS = 3600;  // at most an hour before the deadline, at most a quarter period

/** "3 h", "25 min", "40 s": a short time for a title. */
export function shortTime(seconds) {
  const t = Math.max(0, Math.round(seconds));
  if (t >= 5400) return `${Math.round(t / 3600)} h`;
  if (t >= 90) return `${Math.round(t / 60)} min`;
  return `${t} s`;
}

export class Attention {
  /** `view` is the game page (GameView): its summary, state, chat, renderer and deadline. */
  constructor(view) {
    this.view = view;
    this.el = h("div", { class: "banner banner-warn", id: "deadline-warning", role: "alert", hidden: true });
    this.stateId = null;
    this.warned = null;  // the step whose deadline was announced
    this.seenSeq = null;  // entries up to here were there before (not announced)
  }

  element() {
    return this.el;
  }

  get allowed() {
    return typeof Notification !== "undefined" && Notification.permission === "granted";
  }

  /** A menu item asking for the browser's permission (null when there is nothing to ask). */
  menuItem(close) {
    if (typeof Notification === "undefined" || Notification.permission !== "default") return null;
    return h("button", { type: "button", id: "notify-allow", onClick: () => { close(); this.ask(); } }, "Notify me (new phase, messages, deadline)");
  }

  async ask() {
    try {
      await Notification.requestPermission();
    } catch {
      // an old browser without the promise form: nothing to do
    }
    this.update();
  }

  notify(title, body) {
    if (!this.allowed) return;
    try {
      new Notification(title, { body, tag: `parley-${this.view.gameId}-${title}` });
    } catch {
      // some browsers only notify from a service worker: the page title still tells
    }
  }

  /** The seat's decision as it stands: owed at all, parts without a choice, ready. */
  owing() {
    const state = this.view.state;
    const summary = this.view.summary;
    if (!state || !summary || summary.status !== "active" || !state.owes) return null;
    const seat = state.viewer.seat;
    const owed = (state.observation.turn.owed || []).find((o) => o.seat === seat);
    const saved = this.view.renderer && this.view.renderer.saved;
    const parts = state.options ? groups(state.options).length : 0;
    const loaded = saved && saved.loaded && saved.stateId === state.state_id;
    const open = loaded ? Math.max(0, parts - saved.server.size) : parts;
    return { kind: owed ? owed.kind : "decision", open, ready: Boolean(loaded && saved.ready), tree: state.options };
  }

  left() {
    const dl = this.view.deadline;
    return dl ? (dl.at - performance.now()) / 1000 : null;
  }

  /** Called every second and after every update. */
  update() {
    const view = this.view;
    const summary = view.summary;
    if (!summary) return;
    const owing = this.owing();
    const left = this.left();
    const unread = view.chat ? view.chat.unreadTotal() : 0;
    // "(Your move)" while the table waits for this seat (the server's `table`), then unread.
    const mine = view.waitsForMe ? view.waitsForMe() : Boolean(owing && !owing.ready);
    let what = summary.name;
    const talk = view.negotiation ? view.negotiation() : null;
    if (talk && left !== null && left > 0) what = `negotiation round ${talk.round} of ${talk.rounds} ends in ${shortTime(left)}`;
    else if (owing && !owing.ready && left !== null && left > 0) what = `${owing.kind} due in ${shortTime(left)}`;
    else if (owing && owing.ready) what = `ready — ${summary.name}`;
    document.title = `${mine ? "(Your move) " : ""}${unread ? `(${unread}) ` : ""}Parley — ${what}`;
    this.warn(owing, left);
    this.announceStep(owing);
  }

  warn(owing, left) {
    const period = this.view.summary.period_seconds || WARN_SECONDS * 4;
    const window = Math.min(WARN_SECONDS, period / 4);
    const near = owing && left !== null && left > 0 && left <= window && (owing.open > 0 || !owing.ready);
    this.el.hidden = !near;
    if (!near) return;
    const bits = [];
    if (owing.open > 0 && owing.tree && owing.tree.each) bits.push(`${owing.open} of your ${groups(owing.tree).length} ${owing.open === 1 ? "part has" : "parts have"} no order yet`);
    else if (owing.open > 0) bits.push("nothing is chosen yet");
    if (!owing.ready) bits.push("you have not said you are ready");
    this.el.textContent = `The deadline is in ${shortTime(left)}: ${bits.join(", and ")}. Saved orders count at the deadline; anything else takes the game's default.`;
    const stateId = this.view.state.state_id;
    if (this.warned !== stateId) {
      this.warned = stateId;
      this.notify(`${this.view.summary.name}: deadline in ${shortTime(left)}`, this.el.textContent);
    }
  }

  announceStep(owing) {
    const state = this.view.state;
    if (!state) return;
    if (this.stateId === null) {
      this.stateId = state.state_id;  // what the page opened on is not news
      return;
    }
    if (state.state_id === this.stateId) return;
    this.stateId = state.state_id;
    if (!owing) return;
    const head = this.view.renderer && this.view.renderer.headline ? this.view.renderer.headline() : {};
    const left = this.left();
    const due = left !== null && left > 0 ? `, due in ${shortTime(left)}` : "";
    this.notify(`${this.view.summary.name}: ${head.title || "a new step"}`, `Your ${owing.kind} ${owing.kind.endsWith("s") ? "are" : "is"} wanted${due}.`);
  }

  /** New entries from the live feed: press addressed to this seat is announced. */
  entries(fresh) {
    const seat = this.view.mySeat();
    if (seat === null || seat === undefined) return;
    for (const entry of fresh) {
      if (entry.type !== "press" || !entry.to || entry.seat === seat || !entry.to.includes(seat)) continue;
      const from = entry.seat === null || entry.seat === undefined ? "the game" : this.view.seatLabel(entry.seat);
      this.notify(`${this.view.summary.name}: a message from ${from}`, String(entry.text || "").slice(0, 200));
    }
  }

  stop() {
    document.title = "Parley";
  }
}

const EVENT_LABELS = { turn: "a new phase or turn owes me a decision", press: "a message addressed to me", deadline: "a deadline is near and I am not ready" };

/** Notices by e-mail or webhook (server-side): for this game, or for all my games. */
export async function notifyDialog(gameId) {
  let current;
  try {
    current = await api.notifyPrefs(gameId);
  } catch (err) {
    current = { enabled: false, email: null, webhook_url: null, events: Object.keys(EVENT_LABELS), source: "none" };
  }
  return dialog("Notices outside the browser", (close) => {
    const unconfirmed = current.email && current.email_confirmed === false ? ` ${current.email} is not confirmed yet: open the link in the confirmation e-mail.` : "";
    const note = h("p", { class: "muted small", id: "notify-note", role: "status" }, (current.source === "game" ? "This game has settings of its own." : current.source === "default" ? "Your settings for all games apply here." : "Nothing set yet.") + unconfirmed);
    const enabled = h("input", { type: "checkbox", id: "notify-enabled", checked: current.source === "none" ? true : current.enabled });
    const email = h("input", { type: "email", id: "notify-email", maxlength: 254, value: current.email || "", placeholder: "you@example.org" });
    const hook = h("input", { type: "url", id: "notify-webhook", maxlength: 2000, value: current.webhook_url || "", placeholder: "the address Discord or Slack gives for a webhook" });
    const boxes = Object.entries(EVENT_LABELS).map(([key, label]) => h("label", { class: "check" }, h("input", { type: "checkbox", dataset: { event: key }, checked: (current.events || []).includes(key) }), ` ${label}`));
    const scope = h("select", { id: "notify-scope" }, h("option", { value: "game" }, "for this game"), h("option", { value: "all", selected: current.source === "default" }, "for all my games"));
    const save = async () => {
      const prefs = {
        enabled: enabled.checked,
        email: email.value.trim() || null,
        webhook_url: hook.value.trim() || null,
        events: boxes.map((b) => b.querySelector("input")).filter((i) => i.checked).map((i) => i.dataset.event),
      };
      try {
        const saved = await api.saveNotifyPrefs(scope.value === "game" ? gameId : null, prefs);
        note.textContent = saved && saved.email && !saved.email_confirmed
          ? `Saved. A confirmation was sent to ${saved.email}: e-mails start once you open its link.`
          : "Saved.";
      } catch (err) {
        note.textContent = err.message || String(err);
      }
    };
    return h(
      "div",
      {},
      h("p", {}, "Be told by e-mail or by a webhook (a JSON post Discord and Slack accept), even with no Parley page open."),
      h("label", { class: "check" }, enabled, " on"),
      h("label", { for: "notify-email" }, "E-mail"),
      email,
      h("label", { for: "notify-webhook" }, "Webhook address"),
      hook,
      h("fieldset", {}, h("legend", {}, "Tell me when"), boxes),
      h("div", { class: "row" }, scope, h("button", { type: "button", class: "primary", id: "notify-save", onClick: save }, "Save")),
      note,
      h("div", { class: "row end" }, h("button", { type: "button", id: "notify-close", onClick: () => close(null) }, "Close")),
    );
  });
}
