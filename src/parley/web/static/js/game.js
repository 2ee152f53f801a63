// One game's page: the lobby before the start, then the board of the game (drawn by the
// game's renderer), the side panel (orders, chat, players, log), the live connection,
// the countdown, draw votes, leaving and the game-over screen.

import { api, ApiError, session } from "./api.js";
import { Attention, notifyDialog } from "./attention.js";
import { ChatPanel } from "./chat.js";
import { byId, dialog, fill, formatDuration, formatPeriod, h, plural, s, toast } from "./dom.js";
import { gameModule } from "./games.js";
import { GenericBoard } from "./generic.js";
import { HistoryBar } from "./history.js";
import { sandboxMenu } from "./sandbox.js";
import { LiveGame } from "./live.js";
import { gameTypes, negotiationLabel, seedParagraph } from "./lobby.js";

const CONFIRM_KEY = "parley.confirm";  // "off": send without the server's questions

function errorText(err) {
  return (err && err.message) || String(err);
}

export class GameView {
  constructor(gameId) {
    this.name = "game";
    this.gameId = gameId;
    this.summary = null;
    this.you = null;
    this.state = null;
    this.entries = new Map();
    this.deadline = null;  // {at: performance.now() ms when it passes, stateId}
    this.renderer = null;
    this.tab = null;
    this.overDismissed = false;
    this.attention = new Attention(this);  // the tab title, deadline warning, notifications
  }

  // --- lifecycle ---------------------------------------------------------------------

  mount(app) {
    this.app = app;
    this.root = h("div", { class: "game-page" }, h("p", { class: "muted pad" }, "Loading the game…"));
    app.append(this.root);
    this.load();
    this.tick = setInterval(() => {
      this.showClock();
      this.showNegotiation();
      this.attention.update();
    }, 1000);
    this.onVisible = () => {
      if (document.visibilityState === "visible" && this.live) this.live.retryNow();
    };
    document.addEventListener("visibilitychange", this.onVisible);
  }

  unmount() {
    clearInterval(this.tick);
    this.attention.stop();
    if (this.closeMenu) document.removeEventListener("click", this.closeMenu);
    document.removeEventListener("visibilitychange", this.onVisible);
    if (this.live) this.live.stop();
    if (this.renderer && this.renderer.unmount) this.renderer.unmount();
    const conn = byId("conn");
    if (conn) conn.hidden = true;
  }

  async load() {
    try {
      const game = await api.game(this.gameId);
      this.setSummary(game, true);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) {
        this.showProblem(`There is no game with the id “${this.gameId}”.`, "It may have been mistyped, or it is private and you have not joined it yet.", this.inviteForm());
        return;
      }
      if (err instanceof ApiError && err.status === 401) {
        window.dispatchEvent(new Event("parley:signed-out"));
        return;
      }
      this.showProblem("The game could not be loaded.", errorText(err));
      return;
    }
    if (!this.you) {
      this.showJoin();
      return;
    }
    await this.enter();
  }

  async enter() {
    const mod = await gameModule(this.summary.game);
    this.Renderer = (mod && mod.Renderer) || GenericBoard;
    if (this.summary.status !== "lobby") await this.fetchState();
    this.render();
    if (!this.live) {
      this.live = new LiveGame(this.gameId, {
        message: (msg) => this.onMessage(msg),
        status: (state, detail) => this.onConnection(state, detail),
      });
      this.live.seq = this.lastSeq();
      this.live.start();
    }
  }

  lastSeq() {
    let seq = 0;
    for (const key of this.entries.keys()) seq = Math.max(seq, key + 1);
    return seq;
  }

  async fetchState() {
    try {
      const [state, history] = await Promise.all([api.state(this.gameId), api.history(this.gameId, 0)]);
      for (const entry of history.entries) this.entries.set(entry.seq, entry);
      this.setState(state);
    } catch (err) {
      if (!(err instanceof ApiError && err.code === "wrong_status")) toast(errorText(err), "error");
    }
  }

  // --- incoming data -----------------------------------------------------------------

  setSummary(game, withYou) {
    const wasStatus = this.summary && this.summary.status;
    if (withYou) this.you = game.you || null;
    // Live summaries are the same for everyone: they carry neither `you` nor the invite code.
    const invite = game.invite_code || (this.summary && this.summary.invite_code) || null;
    this.summary = { ...game, you: this.you, invite_code: invite };
    if (game.deadline) this.setDeadline(game.deadline);
    else if (game.status !== "active") this.deadline = null;
    return wasStatus;
  }

  setDeadline(deadline) {
    this.deadline = deadline ? { at: performance.now() + deadline.remaining_seconds * 1000, stateId: deadline.state_id } : null;
  }

  setState(state) {
    this.state = state;
    if (state.deadline) this.setDeadline(state.deadline);
  }

  onMessage(msg) {
    switch (msg.type) {
      case "game": {
        const before = this.setSummary(msg.game, false);
        const now = msg.game.status;
        if (before === "lobby" && now !== "lobby") {
          // The game just started: seats were drawn, so who I am changed.
          api.game(this.gameId).then((g) => {
            this.setSummary(g, true);
            this.fetchState().then(() => this.render());
          });
          return;
        }
        if (this.summary.status === "lobby") this.render();
        else this.refresh("game");
        break;
      }
      case "timer":
        this.setDeadline(msg.deadline);
        this.showClock();
        break;
      case "entries": {
        const fresh = [];
        for (const entry of msg.entries || []) {
          if (!this.entries.has(entry.seq)) fresh.push(Object.assign(entry, { received: Date.now() }));
          this.entries.set(entry.seq, entry);
        }
        for (const entry of msg.revealed || []) this.entries.set(entry.seq, entry);
        this.announce(fresh);
        this.attention.entries(fresh);
        this.refresh("entries");
        break;
      }
      case "state":
        this.setState(msg);
        if (!this.renderer) this.render();
        else this.refresh("state");
        break;
      case "error":
        if (msg.message) toast(msg.message, "error");
        break;
      default:
        break;
    }
  }

  /** Toasts for things worth noticing while looking elsewhere (draw decisions). */
  announce(fresh) {
    for (const entry of fresh) {
      if (entry.type === "draw") toast(entry.agreed ? "Everyone accepted the draw: the game ends in a draw." : "The draw was rejected; the game goes on.", entry.agreed ? "info" : "warn");
      if (entry.type === "vote" && this.state && entry.seat !== this.mySeat()) {
        const name = this.seatLabel(entry.seat);
        toast(`${name} voted on a draw.`);
      }
    }
  }

  onConnection(state, detail) {
    const el = byId("conn");
    if (!el) return;
    el.hidden = false;
    el.className = `conn conn-${state}`;
    const retry = h("button", { type: "button", class: "linkish", onClick: () => this.live.retryNow() }, "retry now");
    if (state === "open") {
      fill(el, "● live");
      el.title = "connected: updates arrive as they happen";
      if (this.wasLost) {
        this.wasLost = false;
        toast("Reconnected. You are back in the game.");
      }
    } else if (state === "connecting") {
      fill(el, detail ? "○ reconnecting…" : "○ connecting…");
    } else if (state === "lost") {
      this.wasLost = true;
      this.missedAway = null;  // counted afresh once back: what passed meanwhile was missed away
      fill(el, `✕ connection lost, retrying in ${detail} s `, retry);
      el.title = "the connection to the server was lost; it comes back by itself";
    } else if (state === "refused") {
      fill(el, "✕ disconnected");
      toast(`The server closed the live connection: ${detail}`, "error");
    }
    const banner = this.root && this.root.querySelector(".offline-banner");
    if (banner) banner.hidden = state !== "lost";
  }

  // --- helpers for renderers ---------------------------------------------------------

  mySeat() {
    return this.state && this.state.viewer ? this.state.viewer.seat : null;
  }

  seatLabel(seat) {
    const s = this.summary && this.summary.seats ? this.summary.seats[seat] : null;
    if (!s) return `seat ${seat}`;
    const name = this.displayName(s.name);
    return s.player ? `${name} (${s.player})` : name;
  }

  /** A seat's name as the game's screens spell it (Diplomacy: "France"). */
  displayName(name) {
    return this.renderer && this.renderer.displayName ? this.renderer.displayName(name) : name;
  }

  entryList() {
    return [...this.entries.values()].sort((a, b) => a.seq - b.seq);
  }

  /**
   * The server's question before this action (its leaf's `confirm`: an attack, a token
   * spent), unless the player turned such questions off; null when there is none.
   */
  confirmFor(action) {
    if (typeof action !== "string" || localStorage.getItem(CONFIRM_KEY) === "off") return null;
    const stack = this.state && this.state.options ? [this.state.options] : [];
    while (stack.length) {
      const node = stack.pop();
      if (node.action === action) return node.confirm || null;
      if (node.children) stack.push(...node.children);
    }
    return null;
  }

  /** Send an action; on failure shows the server's reason and rethrows. */
  async act(body) {
    const question = this.confirmFor(body.action);
    if (question && !(await confirmDialog("Are you sure?", question, "Yes, do it"))) {
      throw new Error("cancelled");  // nothing sent; the board keeps the player's choice
    }
    const req = { ...body };
    if (this.state && req.state_id === undefined) req.state_id = this.state.state_id;
    // The seat's revision: refused as stale if another tab changed the submission meanwhile.
    if (this.state && req.revision === undefined && this.state.revision != null) req.revision = this.state.revision;
    try {
      const out = await api.act(this.gameId, req);
      if (out && out.revision != null && this.state) this.state.revision = out.revision;
      if (!this.live || !this.live.connected) await this.fetchState().then(() => this.refresh("state"));
      return out;
    } catch (err) {
      if (err instanceof ApiError && err.code === "stale") {
        const elsewhere = err.body && err.body.revision !== undefined;
        toast(
          elsewhere
            ? "Your submission was changed elsewhere (another tab?) before this one arrived; here it is as it stands."
            : "The game moved on before your action arrived; here is the new position.",
          "warn",
        );
        await this.fetchState();
        this.refresh("state");
      } else {
        toast(errorText(err), "error");
      }
      throw err;
    }
  }

  /** Take back the seat's last action (offered while the server says it can be). */
  async undo() {
    try {
      await api.undo(this.gameId);
      toast("Your last step was taken back.");
      if (!this.live || !this.live.connected) await this.fetchState().then(() => this.refresh("state"));
    } catch (err) {
      toast(errorText(err), "error");
      await this.fetchState();
      this.refresh("state");
    }
  }

  /** Save parts of the seat's decision (and its ready flag); errors are shown and rethrown. */
  async saveDraft(body) {
    const req = { ...body };
    if (this.state && req.state_id === undefined) req.state_id = this.state.state_id;
    try {
      return await api.saveDraft(this.gameId, req);
    } catch (err) {
      if (!(err instanceof ApiError && err.code === "stale")) toast(`Your orders were not saved: ${errorText(err)}`, "error");
      throw err;
    }
  }

  context() {
    const view = this;
    return {
      gameId: this.gameId,
      get summary() {
        return view.summary;
      },
      // The board draws the moment the history bar shows: the present, or an earlier one.
      get state() {
        return (view.history && view.history.shown()) || view.state;
      },
      // ... and the record up to that moment.
      get entries() {
        const past = view.history && view.history.shown();
        return past ? view.entryList().filter((e) => e.seq < past.seq) : view.entryList();
      },
      get you() {
        return view.you;
      },
      mySeat: () => this.mySeat(),
      seatLabel: (seat) => this.seatLabel(seat),
      seatName: (seat) => this.seatName(seat),
      act: (body) => this.act(body),
      // Saved orders: the seat's parts go to the server as they are entered (see drafts.js).
      loadDraft: () => api.draft(this.gameId),
      saveDraft: (body) => this.saveDraft(body),
      showTab: (key) => this.showTab(key),
      unreadChanged: () => this.showUnread(),
      seatColour: (seat) => (this.renderer && this.renderer.seatColour ? this.renderer.seatColour(seat) : "#888"),
      chatEvents: () => (this.renderer && this.renderer.chatEvents ? this.renderer.chatEvents() : []),
      phaseAt: (seq) => (this.renderer && this.renderer.phaseAt ? this.renderer.phaseAt(seq) : ""),
      negotiation: () => this.negotiation(),
      chatExtras: (key) => (this.renderer && this.renderer.chatExtras ? this.renderer.chatExtras(key) : null),
      addEntries: (list) => {
        let fresh = false;
        for (const entry of list) {
          if (!this.entries.has(entry.seq)) {
            entry.received = Date.now();  // when this page learnt of it, for the chat
            fresh = true;
          }
          this.entries.set(entry.seq, entry);
        }
        if (fresh) this.refresh("entries");
      },
      storageKey: (what) => `parley.${session.user ? session.user.username : "?"}.${this.gameId}.${what}`,
    };
  }

  // --- drawing -----------------------------------------------------------------------

  showProblem(title, detail, extra = null) {
    fill(this.root, h("div", { class: "center-page" }, h("div", { class: "card", id: "game-problem" }, h("h1", {}, title), h("p", {}, detail), extra, h("a", { class: "button", href: "#/" }, "Back to the lobby"))));
  }

  /** For a private game's link: join with its invite code. */
  inviteForm() {
    const code = h("input", { id: "problem-invite", placeholder: "invite code", maxlength: 64, autocomplete: "off" });
    const message = h("p", { class: "form-error", role: "alert" });
    return h(
      "form",
      {
        class: "row",
        onSubmit: async (event) => {
          event.preventDefault();
          message.textContent = "";
          try {
            await api.join(this.gameId, "player", code.value.trim() || undefined);
            this.load();
          } catch (err) {
            message.textContent = err instanceof ApiError && err.status === 404 ? "No game matches that id and invite code: check both." : errorText(err);
          }
        },
      },
      h("label", { for: "problem-invite" }, "Private game? Its invite code:"),
      code,
      h("button", { type: "submit", class: "primary" }, "Join"),
      message,
    );
  }

  showJoin() {
    const g = this.summary;
    const message = h("p", { class: "form-error", role: "alert" });
    const code = h("input", { id: "invite-code", placeholder: "invite code (private games)", maxlength: 64 });
    const join = (role) => async () => {
      message.textContent = "";
      try {
        await api.join(this.gameId, role, code.value.trim() || undefined);
        const game = await api.game(this.gameId);
        this.setSummary(game, true);
        await this.enter();
      } catch (err) {
        message.textContent = errorText(err);
      }
    };
    const canPlay = g.status === "lobby" ? g.players.length < g.seat_count : g.status === "active" && g.seats.some((s) => !s.user && s.controller !== "bot");
    fill(
      this.root,
      h(
        "div",
        { class: "center-page" },
        h(
          "div",
          { class: "card", id: "join-prompt" },
          h("h1", {}, g.name),
          h("p", { class: "muted" }, `${g.title} · ${g.status === "lobby" ? "waiting for players" : g.status} · hosted by ${g.host || "?"}`),
          g.description ? h("p", {}, g.description) : null,
          g.private ? code : null,
          message,
          h(
            "div",
            { class: "row" },
            canPlay ? h("button", { class: "primary", type: "button", id: "join-as-player", onClick: join("player") }, "Join as a player") : null,
            h("button", { type: "button", id: "join-as-spectator", onClick: join("spectator") }, "Watch as a spectator"),
            h("a", { href: "#/" }, "Back to the lobby"),
          ),
        ),
      ),
    );
  }

  render() {
    const g = this.summary;
    if (g.status === "lobby") {
      this.renderLobby();
      return;
    }
    if (!this.state) {
      fill(this.root, h("p", { class: "muted pad" }, "Loading the board…"));
      return;
    }
    if (!this.renderer) {
      this.renderer = new (this.Renderer || GenericBoard)(this.context());
      // Every game steps through its past moments here, but one with a history of its own.
      if (!this.renderer.phaseAt) this.history = new HistoryBar(this);
      this.chat = new ChatPanel(this.context());
      this.buildShell();
    }
    this.refresh("all");
  }

  buildShell() {
    this.boardEl = h("section", { class: "board-area", id: "board" });
    this.banners = h("div", { class: "banners" });
    this.talkText = h("span", { id: "negotiation-text" });
    this.talkEl = h(
      "div",
      { class: "banner banner-talk", id: "negotiation", role: "status", hidden: true },
      this.talkText,
      " ",
      h("button", { type: "button", class: "small", id: "negotiation-chat", onClick: () => this.showTab("chat") }, "Open the chat"),
    );
    // Who the table waits for (the server's `table`: done or not, never what was chosen).
    this.waitEl = h("div", { class: "banner banner-wait", id: "waiting-for", role: "status", hidden: true });
    this.tabBar = h("div", { class: "tabs", role: "tablist" });
    this.tabBody = h("div", { class: "tab-body" });
    this.playersEl = h("div", { class: "players-tab" });
    this.logEl = h("ol", { class: "log" });
    const tabs = [
      ...this.renderer.tabs(),
      { key: "chat", label: "Chat", el: this.chat.element() },
      { key: "players", label: "Players", el: this.playersEl },
      { key: "log", label: "Log", el: this.logEl },
    ];
    this.tabs = tabs;
    for (const tab of tabs) {
      tab.button = h("button", { type: "button", role: "tab", class: "tab", id: `tab-${tab.key}`, dataset: { tab: tab.key }, onClick: () => this.showTab(tab.key) }, tab.label, tab.key === "chat" ? h("span", { class: "unread", id: "chat-unread", hidden: true }) : null);
      this.tabBar.append(tab.button);
      tab.el.classList.add("tab-panel");
      tab.el.dataset.panel = tab.key;
      this.tabBody.append(tab.el);
    }
    this.overEl = h("div", { class: "game-over", id: "game-over", hidden: true });
    // The server says when the seat's last action may still be taken back (`can_undo`).
    this.undoEl = h(
      "div",
      { class: "banner banner-undo undo-bar", hidden: true },
      h("span", {}, "Nobody has acted since your last step, and it revealed nothing: "),
      h("button", { type: "button", id: "undo-button", onClick: () => this.undo() }, "Undo it"),
    );
    fill(
      this.root,
      h("div", { class: "offline-banner", hidden: true, role: "alert" }, "Connection lost. Your orders and messages are kept; the page reconnects by itself and catches up."),
      this.banners,
      this.talkEl,
      this.waitEl,
      this.attention.element(),
      this.history ? this.history.element() : null,
      this.undoEl,
      // Unseen headings under the page's h1, so the board's and the panels' own headings
      // (h3) never skip a level for those who read the page by its headings.
      h(
        "div",
        { class: "game-layout" },
        h("h2", { class: "sr-only", id: "board-heading" }, "Board"),
        this.boardEl,
        h("aside", { class: "side" }, h("h2", { class: "sr-only" }, tabs.map((t) => t.label).join(", ")), this.tabBar, this.tabBody),
      ),
      this.overEl,
    );
    this.renderer.mountBoard(this.boardEl);
    this.showTab(tabs[0].key);
  }

  showTab(key) {
    this.tab = key;
    for (const tab of this.tabs || []) {
      const on = tab.key === key;
      tab.button.classList.toggle("active", on);
      tab.button.setAttribute("aria-selected", String(on));
      tab.el.hidden = !on;
    }
    if (key === "chat" && this.chat) this.chat.shown();
  }

  refresh(kind) {
    if (!this.renderer) {
      this.render();
      return;
    }
    if (this.history) this.history.draw();
    if (this.undoEl) this.undoEl.hidden = !(this.state && this.state.can_undo) || Boolean(this.history && this.history.shown());
    this.renderer.update(kind);
    // Which state the board shows: scripts and tests wait on it before acting on a drawing.
    const shown = (this.history && this.history.shown()) || this.state;
    if (this.boardEl && shown) {
      this.boardEl.dataset.stateId = String(shown.state_id);
      this.boardEl.dataset.past = String(shown !== this.state);
    }
    this.chat.update();
    this.showHeader();
    this.showBanners();
    this.showNegotiation();
    this.showWaiting();
    this.showPlayers();
    this.showLog();
    this.showOver();
    this.showUnread();
    this.attention.update();
  }

  showUnread() {
    const el = byId("chat-unread");
    if (!el) return;
    const n = this.chat.unreadTotal();
    el.hidden = n === 0;
    el.textContent = String(n);
  }

  showHeader() {
    const bar = byId("topbar-game");
    if (!bar) return;
    if (!this.header || !bar.contains(this.header.phase)) {
      // Built once: an update must not close the menu under the player's finger.
      const items = h("div", { class: "menu-items" });
      const menu = h("details", { class: "menu" }, h("summary", { id: "menu-button", "aria-label": "game menu" }, "☰"), items);
      // The game's name is the page's one level-one heading.
      this.header = { name: h("h1", { class: "topbar-name" }), phase: h("span", { class: "phase", id: "phase" }), menu, items, key: null };
      this.clockEl = h("span", { class: "clock", id: "clock" });
      fill(bar, this.header.name, this.header.phase, this.clockEl, menu);
      this.closeMenu = (event) => {
        if (!menu.contains(event.target)) menu.open = false;
      };
      document.addEventListener("click", this.closeMenu);
    }
    const head = this.renderer.headline ? this.renderer.headline() : { title: this.summary.title };
    this.header.name.textContent = this.summary.name;
    this.header.name.title = this.summary.name;
    this.header.phase.textContent = head.title || "";
    const key = JSON.stringify([this.summary.status, this.you && this.you.host, this.mySeat()]);
    if (key !== this.header.key) {
      this.header.key = key;
      fill(this.header.items, this.menu());
    }
    this.showClock();
  }

  menu() {
    const g = this.summary;
    const items = [];
    const mySeat = this.mySeat();
    const live = g.status === "active";
    const item = (id, label, fn, cls) =>
      h("button", { type: "button", id, class: cls, onClick: () => { this.header.menu.open = false; fn(); } }, label);
    if (live && mySeat !== null) items.push(item("menu-draw", "Propose a draw", () => this.proposeDraw()));
    if (!["finished", "closed"].includes(g.status)) {
      items.push(item("menu-leave", this.you && this.you.host ? "Leave (closes the game)" : "Leave the game", () => this.leave()));
      if (this.you && this.you.host) items.push(item("menu-close", "Close the game for everyone", () => this.closeGame(), "danger"));
    }
    if (mySeat !== null) items.push(item("menu-notices", "Notices by e-mail or webhook…", () => notifyDialog(this.gameId)));
    if (live && mySeat !== null) {
      // Questions before actions that spend something (the server marks them): on unless
      // turned off here, for every game in this browser.
      items.push(
        h(
          "label",
          { class: "menu-check" },
          h("input", { type: "checkbox", id: "menu-confirm", checked: localStorage.getItem(CONFIRM_KEY) !== "off", onChange: (e) => (e.target.checked ? localStorage.removeItem(CONFIRM_KEY) : localStorage.setItem(CONFIRM_KEY, "off")) }),
          " Ask before attacks and spending",
        ),
      );
    }
    const ask = this.attention.menuItem(() => (this.header.menu.open = false));
    if (ask) items.push(ask);
    items.push(...sandboxMenu(this, item));  // "continue from here"; a sandbox's seats
    items.push(h("a", { href: "#/manual" }, "Manual"), h("a", { href: "#/" }, "Lobby"));
    return items;
  }

  showClock() {
    const el = this.clockEl;
    if (!el) return;
    if (!this.deadline || !this.summary || this.summary.status !== "active") {
      el.textContent = "";
      return;
    }
    const left = (this.deadline.at - performance.now()) / 1000;
    const talk = this.negotiation();
    fill(el, clockIcon(), left > 0 ? formatDuration(left) : talk ? "round closing" : "deadline passed");
    el.classList.toggle("urgent", left < 60);
    el.title = talk ? `time left in negotiation round ${talk.round} of ${talk.rounds}` : "time left before the deadline; undecided players are given their default";
  }

  /** The negotiation round under way (the server's `negotiation`), null when none is. */
  negotiation() {
    const talk = this.state && this.state.negotiation;
    if (!talk || !talk.round || !this.summary || this.summary.status !== "active") return null;
    return talk;
  }

  /** A negotiation round on now: that it is open, when it closes and the messages left. */
  showNegotiation() {
    if (!this.talkEl) return;
    const talk = this.negotiation();
    this.talkEl.hidden = !talk;
    if (!talk) return;
    const parts = [`Negotiation round ${talk.round} of ${talk.rounds} is open: messages only, orders open after round ${talk.rounds}.`];
    if (this.deadline) {
      const left = (this.deadline.at - performance.now()) / 1000;
      const at = new Date(Date.now() + Math.max(0, left) * 1000);
      const clock = at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
      parts.push(left > 0 ? `This round closes at ${clock} (in ${formatDuration(left)}).` : "This round is closing now.");
    }
    if (talk.messages_left !== undefined && talk.messages_left !== null) {
      parts.push(talk.messages_left > 0 ? `You may send ${plural(talk.messages_left, "more message", "more messages")} in it (of ${talk.messages}).` : `You have sent your ${plural(talk.messages, "message")} of this round.`);
    }
    this.talkText.textContent = parts.join(" ");
  }

  showBanners() {
    const parts = [];
    const obs = this.state && this.state.observation;
    const mySeat = this.mySeat();
    const g = this.summary;
    if (this.you && this.you.role === "spectator") {
      parts.push(h("div", { class: "banner banner-info" }, "You are watching as a spectator: you see the public board and public press only."));
    }
    const mine = mySeat !== null && g.seats ? g.seats[mySeat] : null;
    // Deadlines missed before this page was open (or while its connection was lost) were
    // missed "while away"; one that passes with the page open was not.
    if (mine && (this.missedAway === undefined || this.missedAway === null)) this.missedAway = mine.missed;
    if (mine && !mine.missed) this.missedAway = 0;
    if (mine && g.status === "active" && (mine.controller !== "human" || mine.missed)) {
      const away = mine.controller !== "human" || this.missedAway > 0;
      const why = mine.controller === "bot" ? "a bot is playing your seat" : mine.controller === "disorder" ? "your seat is in civil disorder" : `you missed ${plural(mine.missed, "deadline")}`;
      parts.push(
        h(
          "div",
          { class: "banner banner-warn", id: "back-banner" },
          away ? `While you were away, ${why}. ` : `The deadline passed before you acted (${plural(mine.missed, "deadline")} missed): your seat's default was used. `,
          h(
            "button",
            {
              type: "button",
              class: "primary",
              onClick: async () => {
                try {
                  const out = await api.back(this.gameId);
                  this.setSummary(out, true);
                  this.refresh("game");
                } catch (err) {
                  toast(errorText(err), "error");
                }
              },
            },
            away ? "I'm back" : "Got it",
          ),
        ),
      );
    }
    if (obs && g.status === "active" && obs.draw_votes && obs.draw_votes.length) {
      const voted = obs.draw_votes.includes(mySeat);
      const count = `${obs.draw_votes.length} voted so far`;
      if (mySeat !== null && !voted) {
        parts.push(
          h(
            "div",
            { class: "banner banner-draw", id: "draw-banner" },
            `A draw has been proposed (${count}). It ends the game if every surviving player accepts. `,
            h("button", { type: "button", class: "primary", id: "draw-accept", onClick: () => this.vote(true) }, "Accept the draw"),
            h("button", { type: "button", id: "draw-reject", onClick: () => this.vote(false) }, "Reject"),
          ),
        );
      } else {
        parts.push(h("div", { class: "banner banner-draw", id: "draw-banner" }, `A draw is being voted on (${count}).${voted ? " You voted; waiting for the others." : ""}`));
      }
    }
    fill(this.banners, parts);
  }

  /** The step's table as the server tells it: {waiting, done, later} seat lists (empty when
   * none); `later` are seats a window asking one seat after another has still to ask. */
  table() {
    const t = this.state && this.state.table;
    if (!t || !this.summary || this.summary.status !== "active" || this.negotiation()) return { waiting: [], done: [], later: [] };
    return { waiting: t.waiting || [], done: t.done || [], later: t.later || [] };
  }

  /** Whether the table waits for this viewer's seat now. */
  waitsForMe() {
    const me = this.mySeat();
    return me !== null && this.table().waiting.includes(me);
  }

  seatName(seat) {
    const s = this.summary && this.summary.seats ? this.summary.seats[seat] : null;
    return s ? this.displayName(s.name) : `seat ${seat}`;
  }

  showWaiting() {
    if (!this.waitEl) return;
    const { waiting, done, later } = this.table();
    this.waitEl.hidden = !waiting.length;
    if (!waiting.length) return;
    const me = this.mySeat();
    // Redrawn only when it changes: a status region is read out again on every change.
    const key = JSON.stringify([waiting, done, later, me, this.summary.seats && this.summary.seats.map((s) => s.name)]);
    if (key === this.waitKey) return;
    this.waitKey = key;
    const others = waiting.filter((s) => s !== me).map((s) => this.seatName(s));
    const all = waiting.length + done.length + later.length;
    const count = all > 1 ? ` (${done.length} of ${all} done)` : "";
    const parts = [];
    if (waiting.includes(me)) {
      parts.push(h("strong", {}, "Your move: "), others.length ? `the table waits for you and for ${others.join(", ")}${count}.` : `the table is waiting for you${count}.`);
    } else {
      parts.push(`Waiting for ${others.join(", ")}${count}.`);
    }
    if (done.length) parts.push(h("span", { class: "muted" }, ` Done: ${done.map((s) => this.seatName(s)).join(", ")}.`));
    if (later.length) {
      const next = later.map((s) => (s === me ? "you" : this.seatName(s))).join(", then ");
      parts.push(h("span", { class: "muted", id: "waiting-later" }, ` Still to be asked: ${next}.`));
    }
    this.waitEl.classList.toggle("mine", waiting.includes(me));
    fill(this.waitEl, h("span", { id: "waiting-text" }, parts));
  }

  showPlayers() {
    const g = this.summary;
    const table = this.table();
    const waiting = new Set(table.waiting);
    const done = new Set(table.done);
    const later = new Set(table.later);
    const talking = Boolean(this.negotiation());  // nobody acts in a negotiation round
    const colour = (i) => (this.renderer.seatColour ? this.renderer.seatColour(i) : "#888");
    const rows = (g.seats || []).map((seat) =>
      h(
        "tr",
        { class: seat.seat === this.mySeat() ? "me" : "" },
        h("td", {}, h("span", { class: "swatch", style: { background: colour(seat.seat) } }), this.displayName(seat.name)),
        h("td", {}, seat.player || "—", seat.bot ? h("span", { class: "badge badge-bot" }, `bot: ${seat.bot}`) : null),
        h("td", {}, seat.controller === "human" ? (seat.user ? "playing" : "open seat") : seat.controller === "bot" ? "bot" : "civil disorder", seat.missed ? ` · missed ${seat.missed}` : ""),
        h("td", { class: "turn-cell", dataset: { seat: seat.seat } }, talking ? "talking" : waiting.has(seat.seat) ? "to act" : done.has(seat.seat) ? "✓ done" : later.has(seat.seat) ? "to be asked" : ""),
        this.you && this.you.host && g.status === "active" && seat.controller !== "bot" && !(seat.controller === "human" && seat.user)
          ? h("td", {}, h("button", { type: "button", class: "small", onClick: () => this.seatToBot(seat.seat) }, "give to a bot"))
          : h("td"),
      ),
    );
    fill(
      this.playersEl,
      h("table", { class: "players" }, h("thead", {}, h("tr", {}, h("th", {}, "Seat"), h("th", {}, "Player"), h("th", {}, "Status"), h("th", {}, "Turn"), h("th"))), h("tbody", {}, rows)),
      h("p", { class: "muted small" }, `${plural(g.spectators, "spectator")} watching · host ${g.host || "?"} · ${formatPeriod(g.period_seconds)} per turn${g.negotiation ? ` · negotiation: ${negotiationLabel(g.negotiation)}` : ""} · game id `, h("code", {}, g.id)),
      g.description ? h("p", { class: "small" }, g.description) : null,
      seedParagraph(g),
    );
  }

  /** The record length when this browser last showed the game (kept per game), read once. */
  lastVisit() {
    if (this.visitSeen === undefined) {
      const key = `parley.${session.user ? session.user.username : "?"}.${this.gameId}.seen`;
      const stored = Number(localStorage.getItem(key));
      this.visitSeen = Number.isFinite(stored) && localStorage.getItem(key) !== null ? stored : null;
      this.visitKey = key;
    }
    return this.visitSeen;
  }

  showLog() {
    const items = [];
    const seen = this.lastVisit();
    const upto = this.lastSeq();
    if (upto > 0) localStorage.setItem(this.visitKey, String(upto));
    let marked = false;
    for (const entry of this.entryList()) {
      if (entry.type === "press") continue;
      // "Since your last visit": above it (the list is newest first) what is new.
      if (seen !== null && !marked && entry.seq >= seen) {
        marked = true;
        if (items.length) items.push(h("li", { class: "since-visit", id: "since-last-visit" }, "▲ New since your last visit"));
      }
      const who = entry.seat === null || entry.seat === undefined ? "" : this.seatLabel(entry.seat);
      let text;
      if (entry.type === "action") {
        text = entry.hidden ? `${who} acted (hidden until the step resolves)` : `${who}: ${entry.notation}${entry.auto ? " (default, chosen for the seat)" : ""}`;
      } else if (entry.type === "vote") {
        text = `${who} voted on a draw${entry.accept === undefined ? "" : entry.accept ? " (yes)" : " (no)"}`;
      } else if (entry.type === "draw") {
        text = entry.agreed ? "Draw agreed by everyone" : "Draw rejected";
      } else if (entry.type === "takeback") {
        text = `${who} took back #${entry.of}`;
      } else {
        continue;
      }
      const notes = this.renderer.logNotes ? this.renderer.logNotes(entry) : [];
      items.push(h("li", { dataset: { seq: entry.seq } }, h("span", { class: "seq" }, `#${entry.seq}`), " ", text, notes.length ? h("ul", { class: "log-notes" }, notes.map((n) => h("li", {}, n))) : null));
    }
    items.reverse();
    fill(this.logEl, items.length ? items : h("li", { class: "muted" }, "Nothing has happened yet."));
  }

  showOver() {
    const g = this.summary;
    if (!["finished", "closed"].includes(g.status) || this.overDismissed) {
      this.overEl.hidden = true;
      return;
    }
    const outcome = g.outcome || (this.state && this.state.observation && this.state.observation.outcome);
    const body = [];
    if (g.status === "closed" && !outcome) {
      body.push(h("h2", {}, "The game was closed"), h("p", {}, "The host ended this game. Its record is kept; the board stays as it was."));
    } else if (outcome) {
      const names = (seats) => seats.map((s) => this.seatLabel(s)).join(", ");
      const mine = this.mySeat();
      let title = outcome.draw ? "The game ends in a draw" : `${names(outcome.winners)} wins`;
      if (mine !== null && !outcome.draw) title = outcome.winners.includes(mine) ? "Victory! You won the game" : `Game over: ${names(outcome.winners)} won`;
      // The rules word the reason as a clause ("the year limit 1901 was reached"); here it
      // stands alone, so it reads as a sentence.
      const reason = String(outcome.reason || "");
      body.push(h("h2", {}, title), h("p", { id: "game-over-reason" }, reason && `${reason[0].toUpperCase()}${reason.slice(1)}${/[.!?]$/.test(reason) ? "" : "."}`));
      const order = outcome.ranks.map((rank, seat) => ({ rank, seat })).sort((a, b) => a.rank - b.rank || a.seat - b.seat);
      body.push(h("ol", { class: "ranks" }, order.map(({ rank, seat }) => h("li", { class: seat === mine ? "me" : "" }, `${rank}. ${this.seatLabel(seat)}`, outcome.draw && outcome.winners.includes(seat) ? " — shares the draw" : ""))));
    }
    fill(
      this.overEl,
      h(
        "div",
        { class: "card game-over-card" },
        body,
        h("div", { class: "row" }, h("button", { type: "button", onClick: () => { this.overDismissed = true; this.showOver(); } }, "Look at the board"), this.history ? h("button", { type: "button", id: "over-history", onClick: () => { this.overDismissed = true; this.showOver(); this.history.back(); } }, "Step back through the game") : null, h("a", { class: "button primary", href: "#/" }, "Back to the lobby")),
      ),
    );
    this.overEl.hidden = false;
  }

  // --- the lobby of a game before it starts ------------------------------------------

  async renderLobby() {
    const g = this.summary;
    const host = this.you && this.you.host;
    const message = h("p", { class: "form-error", role: "alert", id: "lobby-error" });
    let catalog = null;
    try {
      catalog = await gameTypes();
    } catch {
      catalog = { bots: ["random"] };
    }
    // The bots that can play this game, its strongest first offer (the heuristic) preselected.
    const kind = (catalog.games || []).find((t) => t.name === g.game) || {};
    const bots = kind.bots || catalog.bots;
    const firstBot = kind.default_bot || (bots.includes("heuristic") ? "heuristic" : "random");
    // The host's choice outlives a redraw of the waiting room (someone joins, a message comes).
    const chosen = bots.includes(this.fillChoice) ? this.fillChoice : firstBot;
    const fillWith = h("select", { id: "start-fill", "aria-label": "bots for empty seats", onChange: (e) => { this.fillChoice = e.target.value; } }, bots.map((b) => h("option", { value: b, selected: b === chosen }, `empty seats: “${b}” bots`)));
    const startGame = async () => {
      const empty = g.seat_count - g.players.length;
      if (empty <= 0) return api.start(this.gameId);
      const yes = await confirmDialog(
        "Fill the empty seats with bots?",
        `${plural(empty, "seat")} ${empty === 1 ? "is" : "are"} still empty. Starting now gives ${empty === 1 ? "it" : "them"} to “${fillWith.value}” bots for the whole game (a seat can be opened to a newcomer later).`,
        `Start with ${plural(empty, "bot")}`,
      );
      return yes ? api.start(this.gameId, fillWith.value) : null;
    };
    const run = (fn) => async () => {
      message.textContent = "";
      try {
        const out = await fn();
        if (out && out.id) this.setSummary(out, true);
        if (this.summary.status !== "lobby") {
          await this.fetchState();
          this.render();
        } else this.renderLobby();
      } catch (err) {
        message.textContent = errorText(err);
      }
    };
    const free = g.seat_count - g.players.length;
    const botKind = h("select", { id: "add-bot-kind", "aria-label": "kind of bot" }, bots.map((b) => h("option", { value: b }, b)));
    fill(
      byId("topbar-game"),
      h("span", { class: "topbar-name" }, g.name),
      h("span", { class: "phase" }, `${g.title} · waiting for players`),
    );
    fill(
      this.root,
      h(
        "div",
        { class: "center-page" },
        h(
          "div",
          { class: "card game-lobby", id: "game-lobby" },
          h("h1", {}, g.name),
          h("p", { class: "muted" }, `${g.title} · ${g.seat_count} players · ${formatPeriod(g.period_seconds)} per turn · press: ${g.press}${g.negotiation ? ` · negotiation: ${negotiationLabel(g.negotiation)}` : ""}${g.private ? " · private" : ""}`),
          g.description ? h("p", { class: "description" }, g.description) : null,
          seedParagraph(g),
          h(
            "div",
            { class: "share" },
            h("span", {}, "Game id: "),
            h("code", { id: "game-id" }, g.id),
            h("button", { type: "button", class: "small", onClick: () => navigator.clipboard && navigator.clipboard.writeText(g.id).then(() => toast("Game id copied.")) }, "Copy"),
            g.invite_code ? [h("span", {}, " · invite code: "), h("code", { id: "invite" }, g.invite_code)] : null,
          ),
          h("h2", { id: "lobby-players-head" }, `Players (${g.players.length}/${g.seat_count})`),
          h(
            "ul",
            { class: "lobby-players", id: "lobby-players" },
            g.players.map((p) => h("li", {}, p.player, p.player === g.host ? h("span", { class: "badge" }, "host") : null, p.bot ? h("span", { class: "badge badge-bot" }, `bot: ${p.bot}`) : null)),
            Array.from({ length: free }, () => h("li", { class: "muted" }, "open seat")),
          ),
          h("p", { class: "muted small" }, `${plural(g.spectators, "spectator")}. Seats (powers, colours) are drawn at random when the host starts the game.`),
          host
            ? h(
                "div",
                { class: "host-controls" },
                free > 0 ? h("div", { class: "row" }, h("button", { type: "button", id: "add-bot", onClick: run(() => api.addBots(this.gameId, botKind.value, 1)) }, "Add a bot"), botKind) : null,
                h("div", { class: "row" }, h("button", { type: "button", class: "primary", id: "start-game", onClick: run(startGame) }, "Start the game"), free > 0 ? fillWith : null),
                h("div", { class: "row" }, h("button", { type: "button", class: "danger", id: "close-game", onClick: () => this.closeGame() }, "Close the game")),
              )
            : h("p", { class: "muted" }, `Waiting for ${g.host || "the host"} to start the game.`),
          message,
          this.waitingRoom(),
          h("div", { class: "row" }, h("button", { type: "button", id: "lobby-leave", onClick: () => this.leave() }, "Leave"), h("a", { href: "#/" }, "Back to the lobby")),
        ),
      ),
    );
  }

  /** The table chat before the start: built once (the draft being typed survives updates). */
  waitingRoom() {
    const g = this.summary;
    if (g.press === "none") return h("p", { class: "muted small", id: "waiting-room-off" }, "No chat: this game is played without press (gunboat).");
    if (!this.room) {
      const list = h("ol", { class: "waiting-chat", id: "waiting-chat", "aria-live": "polite", tabindex: 0, "aria-label": "messages in the waiting room" });
      const text = h("textarea", { id: "waiting-text", rows: 2, maxlength: 2000, placeholder: "Say hello, agree on house rules…", "aria-label": "message to the table" });
      const error = h("p", { class: "form-error", role: "alert", id: "waiting-error" });
      const show = (messages) => {
        fill(list, messages.length ? messages.map((m) => h("li", {}, h("strong", {}, m.by || "?"), " ", h("span", { class: "muted small" }, new Date(m.at * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })), h("div", { class: "waiting-text" }, m.text))) : h("li", { class: "muted" }, "No message yet."));
        list.scrollTop = list.scrollHeight;
      };
      const send = async (event) => {
        event.preventDefault();
        error.textContent = "";
        if (!text.value.trim()) {
          error.textContent = "Write something first.";
          return;
        }
        try {
          const out = await api.sayInWaitingRoom(this.gameId, text.value);
          text.value = "";  // kept until the server took it: a refusal loses nothing
          this.room.count = out.messages.length;
          show(out.messages);
        } catch (err) {
          error.textContent = errorText(err);
        }
      };
      const form = h("form", { class: "waiting-form", onSubmit: send }, text, h("button", { type: "submit", class: "primary", id: "waiting-send" }, "Send"));
      text.addEventListener("keydown", (event) => {
        if (event.key === "Enter" && !event.shiftKey) send(event);
      });
      this.room = { el: h("section", { class: "waiting-room", id: "waiting-room" }, h("h2", {}, "Table chat"), list, form, error), show, count: -1 };
    }
    if (this.room.count !== g.waiting_chat) {
      this.room.count = g.waiting_chat;
      api.waitingRoom(this.gameId).then((out) => this.room.show(out.messages), (err) => this.room.show([]) || toast(errorText(err), "error"));
    }
    return this.room.el;
  }

  // --- commands ----------------------------------------------------------------------

  async proposeDraw() {
    const ok = await confirmDialog("Propose a draw?", "Every surviving player is asked. The game ends in a draw only if all accept; one refusal rejects it.", "Propose the draw");
    if (ok) await this.vote(true);
  }

  async vote(accept) {
    try {
      const out = await api.draw(this.gameId, accept);
      if (out.decided) toast(out.agreed ? "The draw was agreed." : "The draw was rejected.");
      else toast(accept ? "Your vote for a draw is in." : "You rejected the draw.");
      await this.fetchState();
      this.refresh("state");
    } catch (err) {
      toast(errorText(err), "error");
    }
  }

  async leave() {
    const host = this.you && this.you.host;
    const text = host
      ? "You host this game: leaving closes it for everyone."
      : this.summary.status === "active"
        ? "Your seat goes into civil disorder (its units hold) until someone takes it over. You can rejoin while it is free."
        : "You leave the game's lobby.";
    if (!(await confirmDialog("Leave the game?", text, "Leave"))) return;
    try {
      await api.leave(this.gameId);
      location.hash = "#/";
    } catch (err) {
      toast(errorText(err), "error");
    }
  }

  async closeGame() {
    if (!(await confirmDialog("Close the game?", "The game ends for everyone now. Its record is kept.", "Close the game"))) return;
    try {
      const out = await api.close(this.gameId);
      this.setSummary(out, true);
      if (this.renderer) this.refresh("game");
      else location.hash = "#/";
    } catch (err) {
      toast(errorText(err), "error");
    }
  }

  async seatToBot(seat) {
    try {
      const out = await api.seatToBot(this.gameId, seat, "random");
      this.setSummary(out, true);
      this.refresh("game");
    } catch (err) {
      toast(errorText(err), "error");
    }
  }
}

function clockIcon() {
  return s("svg", { viewBox: "0 0 24 24", "aria-hidden": "true" }, s("circle", { cx: 12, cy: 13, r: 8 }), s("path", { d: "M12 9 L12 13 L15 15 M9 2 L15 2" }));
}

/** Ask yes or no; resolves true for yes. */
export function confirmDialog(title, text, yes) {
  return dialog(title, (close) =>
    h(
      "div",
      {},
      h("p", {}, text),
      h("div", { class: "row end" }, h("button", { type: "button", onClick: () => close(false) }, "Cancel"), h("button", { type: "button", class: "primary", id: "confirm-yes", onClick: () => close(true) }, yes)),
    ),
  ).then((v) => Boolean(v));
}
