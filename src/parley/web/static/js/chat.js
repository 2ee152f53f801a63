// Press: the public channel, one-to-one and group channels, unread counts. Which messages
// a viewer gets is the server's decision (spectators receive public press only); this
// panel groups what arrived into channels and sends new messages.

import { api } from "./api.js";
import { dialog, fill, h, toast } from "./dom.js";

const PUBLIC = "public";

function channelKey(entry) {
  if (entry.to === null || entry.to === undefined) return PUBLIC;
  const people = [...new Set([entry.seat, ...entry.to])].filter((s) => s !== null && s !== undefined).sort((a, b) => a - b);
  return `${people.join(",")}|${entry.channel || ""}`;
}

function parseKey(key) {
  if (key === PUBLIC) return null;
  const [people, name] = key.split("|");
  return { people: people.split(",").filter(Boolean).map(Number), name: name || "" };
}

export class ChatPanel {
  constructor(ctx) {
    this.ctx = ctx;
    this.current = PUBLIC;
    this.visible = false;
    this.el = h("div", { class: "chat" });
    this.channelBar = h("div", { class: "channels", id: "channels" });
    this.extras = h("div", { class: "chat-extras" });
    this.list = h("ol", { class: "messages", id: "messages", "aria-live": "polite", tabindex: 0, "aria-label": "messages" });
    this.input = h("textarea", { id: "chat-input", rows: 2, maxlength: 2000, placeholder: "Write a message… (Enter sends, Shift+Enter for a new line)" });
    this.input.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey) {
        event.preventDefault();
        this.send();
      }
    });
    this.sendButton = h("button", { type: "button", class: "primary", id: "chat-send", onClick: () => this.send() }, "Send");
    this.composer = h("div", { class: "composer" }, this.input, this.sendButton);
    this.note = h("p", { class: "muted small chat-note" });
    this.el.append(this.channelBar, this.extras, this.list, this.note, this.composer);
  }

  element() {
    return this.el;
  }

  // --- what has been read ------------------------------------------------------------

  readMarks() {
    try {
      return JSON.parse(localStorage.getItem(this.ctx.storageKey("read")) || "{}");
    } catch {
      return {};
    }
  }

  markRead(key, seq) {
    const marks = this.readMarks();
    if ((marks[key] ?? -1) >= seq) return;
    marks[key] = seq;
    localStorage.setItem(this.ctx.storageKey("read"), JSON.stringify(marks));
    if (this.ctx.unreadChanged) setTimeout(() => this.ctx.unreadChanged(), 0);
  }

  savedChannels() {
    try {
      return JSON.parse(localStorage.getItem(this.ctx.storageKey("channels")) || "[]");
    } catch {
      return [];
    }
  }

  // --- channels ----------------------------------------------------------------------

  channels() {
    const me = this.ctx.mySeat();
    const map = new Map([[PUBLIC, { key: PUBLIC, messages: [] }]]);
    for (const key of this.savedChannels()) if (!map.has(key)) map.set(key, { key, messages: [] });
    for (const entry of this.ctx.entries) {
      if (entry.type !== "press") continue;
      const key = channelKey(entry);
      if (!map.has(key)) map.set(key, { key, messages: [] });
      map.get(key).messages.push(entry);
    }
    for (const event of this.ctx.chatEvents ? this.ctx.chatEvents() : []) {
      if (!map.has(event.channel)) map.set(event.channel, { key: event.channel, messages: [] });
      map.get(event.channel).messages.push({ ...event, type: "event" });
    }
    for (const channel of map.values()) channel.messages.sort((a, b) => a.seq - b.seq);
    const marks = this.readMarks();
    for (const channel of map.values()) {
      const last = marks[channel.key] ?? -1;
      channel.unread = channel.messages.filter((m) => m.seq > last && m.seat !== me).length;
      channel.lastSeq = channel.messages.length ? channel.messages[channel.messages.length - 1].seq : -1;
    }
    return [...map.values()];
  }

  channelName(key) {
    if (key === PUBLIC) return "Public";
    const { people, name } = parseKey(key);
    const me = this.ctx.mySeat();
    const others = people.filter((s) => s !== me).map((s) => this.seatName(s));
    if (name) return `#${name}`;
    return others.length === 1 ? others[0] : others.join(", ");
  }

  seatName(seat) {
    const seats = this.ctx.summary.seats || [];
    if (!seats[seat]) return `seat ${seat}`;
    return this.ctx.seatName ? this.ctx.seatName(seat) : seats[seat].name;
  }

  unreadTotal() {
    return this.channels().reduce((n, c) => n + c.unread, 0);
  }

  shown() {
    this.visible = true;
    this.update();
  }

  // --- drawing -----------------------------------------------------------------------

  update() {
    const summary = this.ctx.summary;
    const me = this.ctx.mySeat();
    const spectator = me === null;
    const press = summary.press;
    const channels = this.channels();
    if (!channels.some((c) => c.key === this.current)) this.current = PUBLIC;
    const tabVisible = !this.el.hidden;
    fill(
      this.channelBar,
      channels.map((c) =>
        h(
          "button",
          { type: "button", class: ["channel", c.key === this.current && "active"], dataset: { channel: c.key }, title: c.key === PUBLIC ? "everyone, spectators included" : this.members(c.key), onClick: () => this.open(c.key) },
          this.channelName(c.key),
          c.unread && !(tabVisible && c.key === this.current) ? h("span", { class: "unread" }, String(c.unread)) : null,
        ),
      ),
      !spectator && press === "full" ? h("button", { type: "button", class: "channel new-channel", id: "new-channel", onClick: () => this.newChannel() }, "+ New") : null,
    );
    const channel = channels.find((c) => c.key === this.current);
    fill(this.list, channel.messages.length ? channel.messages.map((m) => this.message(m)) : h("li", { class: "muted empty" }, this.current === PUBLIC ? "No public messages yet." : "No messages yet in this conversation."));
    if (tabVisible) {
      this.list.scrollTop = this.list.scrollHeight;
      if (channel.lastSeq >= 0) this.markRead(channel.key, channel.lastSeq);
    }
    const extras = this.ctx.chatExtras ? this.ctx.chatExtras(this.current) : null;
    fill(this.extras, extras);
    let note = "";
    let canSend = !spectator && summary.status === "active";
    if (spectator) note = "Spectators read the public press only and cannot send messages.";
    else if (press === "none") {
      note = "This game is played without press (gunboat): no messages.";
      canSend = false;
    } else if (press === "public") note = "This game allows public press only.";
    else if (summary.status !== "active") note = "Press is closed: the game is not running.";
    else if (this.current !== PUBLIC) note = `Private: only ${this.members(this.current)} can read this.`;
    else note = "Public: every player and spectator can read this.";
    const talk = canSend && this.ctx.negotiation ? this.ctx.negotiation() : null;
    if (talk && typeof talk.messages_left === "number") {
      // A negotiation round's quota, as the server counts it.
      note += ` Round ${talk.round} of ${talk.rounds}: ${talk.messages_left} of your ${talk.messages} messages left.`;
      if (talk.messages_left <= 0) canSend = false;
    }
    this.note.textContent = note;
    this.composer.hidden = !canSend;
  }

  members(key) {
    const parsed = parseKey(key);
    return parsed ? parsed.people.map((s) => this.seatName(s)).join(", ") : "everyone";
  }

  message(entry) {
    const me = this.ctx.mySeat();
    const sender = entry.seat === null || entry.seat === undefined ? "Game master" : this.seatName(entry.seat);
    const player = entry.seat !== null && entry.seat !== undefined ? (this.ctx.summary.seats[entry.seat] || {}).player : null;
    const colour = entry.seat !== null && entry.seat !== undefined && this.ctx.seatColour ? this.ctx.seatColour(entry.seat) : "#777";
    return h(
      "li",
      { class: ["message", entry.seat === me && "mine", entry.type === "event" && "event"], dataset: { seq: entry.seq } },
      h("div", { class: "message-head" }, h("span", { class: "swatch", style: { background: colour } }), h("strong", {}, sender), player ? h("span", { class: "muted" }, player) : null, entry.type === "event" ? h("span", { class: "badge" }, "bargain") : null, this.meta(entry)),
      h("div", { class: "message-text" }, entry.text),
    );
  }

  /** When a message was sent (the server's time, `at` in ISO 8601 UTC, shown in the
   * reader's local time; else when this page received it) and in which phase. */
  meta(entry) {
    const phase = this.ctx.phaseAt ? this.ctx.phaseAt(entry.seq) : "";
    const parsed = typeof entry.at === "string" ? Date.parse(entry.at) : NaN;
    const ms = Number.isFinite(parsed) ? parsed : entry.received;
    const when = ms ? new Date(ms) : null;
    let time = "";
    if (when) {
      time = when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
      // An older message names its day too: "12 Mar 14:05".
      if (when.toDateString() !== new Date().toDateString()) time = `${when.toLocaleDateString([], { day: "numeric", month: "short" })} ${time}`;
    }
    const text = [phase, time].filter(Boolean).join(" · ");
    if (!text) return null;
    const attrs = { class: "message-meta", title: when ? `${when.toLocaleString()} (your time)` : phase };
    return h("time", when ? { ...attrs, datetime: when.toISOString() } : attrs, text);
  }

  open(key) {
    this.current = key;
    this.update();
    this.input.focus();
  }

  async newChannel() {
    const me = this.ctx.mySeat();
    const seats = (this.ctx.summary.seats || []).filter((s) => s.seat !== me);
    const result = await dialog("New conversation", (close) => {
      const boxes = seats.map((s) => h("input", { type: "checkbox", value: s.seat, id: `with-${s.seat}` }));
      const name = h("input", { id: "channel-name", maxlength: 40, placeholder: "optional, for groups", pattern: "[A-Za-z0-9 _.\\-]*" });
      const error = h("p", { class: "form-error" });
      return h(
        "form",
        {
          class: "new-channel-form",
          onSubmit: (event) => {
            event.preventDefault();
            const chosen = boxes.filter((b) => b.checked).map((b) => Number(b.value));
            if (!chosen.length) {
              error.textContent = "Choose at least one player.";
              return;
            }
            if (name.value && !/^[A-Za-z0-9 _.-]{1,40}$/.test(name.value)) {
              error.textContent = "A group name uses letters, digits, spaces, '_', '.' and '-'.";
              return;
            }
            close({ people: chosen, name: name.value.trim() });
          },
        },
        h("p", { class: "muted" }, "Only the players you choose can read the conversation."),
        h("div", { class: "checks" }, seats.map((s, i) => h("label", { class: "inline", for: `with-${s.seat}` }, boxes[i], this.seatName(s.seat), s.player ? h("span", { class: "muted" }, ` (${s.player})`) : null))),
        h("label", { for: "channel-name" }, "Group name"),
        name,
        error,
        h("div", { class: "row end" }, h("button", { type: "button", onClick: () => close(null) }, "Cancel"), h("button", { type: "submit", class: "primary", id: "channel-create" }, "Start")),
      );
    });
    if (!result) return;
    const people = [...new Set([me, ...result.people])].sort((a, b) => a - b);
    const key = `${people.join(",")}|${result.people.length > 1 ? result.name : result.name}`;
    const saved = this.savedChannels();
    if (!saved.includes(key)) {
      saved.push(key);
      localStorage.setItem(this.ctx.storageKey("channels"), JSON.stringify(saved));
    }
    this.open(key);
  }

  async send() {
    const text = this.input.value;
    if (!text.trim()) return;
    const req = { text };
    const parsed = parseKey(this.current);
    if (parsed) {
      const me = this.ctx.mySeat();
      req.to = parsed.people.filter((s) => s !== me);
      if (parsed.name) req.channel = parsed.name;
    }
    this.sendButton.disabled = true;
    try {
      const out = await api.press(this.ctx.gameId, req);
      this.input.value = "";
      if (out && out.entry) this.ctx.addEntries([out.entry]);
    } catch (err) {
      toast(err.message || String(err), "error");
    } finally {
      this.sendButton.disabled = false;
      this.input.focus();
    }
  }
}
