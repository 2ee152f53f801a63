// The Illuminati table: every power structure on its grid, the uncontrolled area, the dead
// pile and the deck, hands, the attack in progress and the prompts of whoever must act.
// Play is by tapping: a mode (attack to control, transfer, move, drop), then the cards the
// server's options tree allows. Every action sent is a leaf of that tree.

import { api } from "../api.js";
import { dialog, fill, formatDuration, h, toast } from "../dom.js";
import { leaves } from "../options.js";
import { drawAttack, lastResult } from "./attack.js";
import { cardFace, specialCard } from "./cards.js";
import { bankLine, lastAttackBox, moveQuestionPanel, sameAttack } from "./results.js";
import { readAction, seatName } from "./notation.js";
import { drawStructure } from "./structure.js";

const PALETTE = ["#b8322c", "#2f5fb3", "#2e8b4a", "#c99a12", "#7e4bb0", "#d0692a", "#20878a", "#5d6066"];

const MODES = {
  control: "Attack to control",
  neutralize: "Attack to neutralize",
  destroy: "Attack to destroy",
  transfer: "Transfer money",
  move: "Move a group",
  drop: "Drop a group",
};

const HINTS = {
  control: (m) => (m.target ? `Tap the card of yours that attacks ${m.target}.` : "Tap the group to take control of (highlighted)."),
  neutralize: (m) => (m.target ? `Tap the card of yours that attacks ${m.target}.` : "Tap the group to neutralize (highlighted)."),
  destroy: (m) => (m.target ? `Tap the card of yours that attacks ${m.target}.` : "Tap the group to destroy (highlighted)."),
  transfer: (m) => (m.source ? `Tap the card that receives money from ${m.source}.` : "Tap the card that gives the money."),
  move: (m) => (m.group ? `Tap a highlighted free arrow to move ${m.group} (with its puppets) there.` : "Tap the group to move."),
  drop: () => "Tap the group to drop to the uncontrolled area.",
};

function once(href) {
  if (document.querySelector(`link[href="${href}"]`)) return;
  document.head.append(h("link", { rel: "stylesheet", href }));
}

export class IlluminatiTable {
  constructor(ctx) {
    this.ctx = ctx;
    this.mode = null;
    this.zoom = 1;
    this.focus = "all";
    this.busy = false;
    this.memo = null;
    this.detail = null;
    once("/static/css/illuminati.css");
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
    if (!v) return { title: "Illuminati" };
    if (v.phase === "over") return { title: "Illuminati · game over" };
    if (v.phase === "choose") return { title: "Illuminati · choosing Illuminati" };
    // Short, for the top bar of a phone: the seat, not the player's name.
    return { title: `Round ${v.round} · ${v.active === this.ctx.mySeat() ? "your" : `${seatName(v.active)}'s`} turn` };
  }

  mountBoard(el) {
    this.el = el;
    this.status = h("div", { class: "il-status", id: "il-status", role: "status" });
    this.attackEl = h("div", { class: "il-attack", id: "il-attack" });
    this.controls = h("div", { class: "il-controls", id: "il-controls" });
    this.centre = h("div", { class: "il-centre", id: "il-centre" });
    this.toolbar = h("div", { class: "il-toolbar", id: "il-toolbar" });
    this.players = h("div", { class: "il-players", id: "il-players" });
    el.append(h("div", { class: "il-table" }, this.status, this.attackEl, this.controls, this.centre, this.toolbar, this.players));
    this.timer = setInterval(() => this.tick(), 1000);
  }

  unmount() {
    clearInterval(this.timer);
  }

  update() {
    if (!this.el || !this.view()) return;
    const v = this.view();
    if (v.attack) this.memo = v.attack;
    this.acts = this.myActs();
    this.checkMode();
    this.drawStatus();
    this.drawAttack();
    this.drawControls();
    this.drawCentre();
    this.drawToolbar();
    this.drawPlayers();
    fitNames(this.el);
  }

  // --- data --------------------------------------------------------------------------

  view() {
    return this.ctx.state ? this.ctx.state.observation.view : null;
  }

  myActs() {
    const st = this.ctx.state;
    const tree = st && st.can_act ? st.options : null;
    // The same leaf may sit under two kinds (accept and decline are offered under both).
    const seen = new Map();
    for (const l of leaves(tree)) {
      const label = l.path.length > 1 ? l.path[1].label : "";  // the kind, just under the root
      // `leafLabel`: the server's words for this very action where it gives some
      if (!seen.has(l.action)) seen.set(l.action, { ...readAction(l.action), label, leafLabel: l.label });
    }
    return [...seen.values()];
  }

  of(kind) {
    return this.acts.filter((a) => a.kind === kind);
  }

  who(seat) {
    if (seat === this.ctx.mySeat()) return "You";
    const s = this.ctx.summary.seats && this.ctx.summary.seats[seat];
    return s && s.player ? `${seatName(seat)} (${s.player})` : seatName(seat);
  }

  countdown() {
    const d = this.ctx.state && this.ctx.state.deadline;
    if (!d || !this.view() || !this.view().owed) return "";
    if (this.deadlineFor !== this.ctx.state.state_id) {
      this.deadlineFor = this.ctx.state.state_id;
      this.deadlineAt = performance.now() + d.remaining_seconds * 1000;
    }
    const left = (this.deadlineAt - performance.now()) / 1000;
    return left > 0 ? `${formatDuration(left)} left to answer, then “pass” is taken` : "time is up: the default is taken";
  }

  tick() {
    const el = this.el && this.el.querySelector("#il-countdown");
    if (el) el.textContent = this.countdown();
  }

  async act(text) {
    if (this.busy) return;
    this.busy = true;
    try {
      await this.ctx.act({ action: text });
      this.mode = null;
    } catch {
      // the game view shows the server's reason
    } finally {
      this.busy = false;
    }
  }

  /** Leave a tapping mode whose choices the server no longer offers. */
  checkMode() {
    const m = this.mode;
    if (!m) return;
    const still = {
      control: () => this.of("attack").some((a) => a.type === "control"),
      neutralize: () => this.of("attack").some((a) => a.type === "neutralize"),
      destroy: () => this.of("attack").some((a) => a.type === "destroy"),
      transfer: () => this.of("transfer").length > 0,
      move: () => this.of("move").length > 0,
      drop: () => this.of("drop").length > 0,
    }[m.type];
    if (!still || !still()) this.mode = null;
  }

  setMode(type) {
    this.mode = this.mode && this.mode.type === type ? null : { type };
    this.update();
  }

  // --- what a tap on a card does -----------------------------------------------------

  /** For a card on the table: {class, onClick} when the current choice can use it. */
  look(name) {
    const v = this.view();
    const classes = [];
    const a = v.attack;
    if (a) {
      if (name === a.target) classes.push("il-attacked");
      if (name === a.attacker) classes.push("il-attacking");
      if (a.aids.includes(name)) classes.push("il-aiding");
    }
    if (this.detail === name) classes.push("il-selected");
    // The move asked about: its group, and the cards it would lose, marked on the board.
    const q = v.move_question;
    if (q && q.group === name) classes.push("il-moving");
    if (q && q.lost.includes(name)) classes.push("il-would-lose");
    const tap = this.tapFor(name);
    if (tap) classes.push("il-target");
    const out = { class: classes, onClick: tap || (() => this.showDetail(name)) };
    if (this.of("move").some((t) => t.group === name)) {
      out.onDragStart = (event) => this.dragStart(name, event);
      out.onDragEnd = () => this.dragEnd();
    }
    return out;
  }

  /** Dragging a group that may move: the free arrows it may go to accept the drop. */
  dragStart(name, event) {
    if (event.dataTransfer) {
      event.dataTransfer.setData("text/plain", name);
      event.dataTransfer.effectAllowed = "move";
    }
    for (const t of this.of("move").filter((m) => m.group === name)) {
      const arrow = this.players.querySelector(`.il-arrow.free[data-host="${CSS.escape(t.host)}"][data-direction="${t.direction}"]`);
      if (!arrow) continue;
      arrow.classList.add("drop");
      arrow.ondragover = (e) => e.preventDefault();
      arrow.ondrop = (e) => {
        e.preventDefault();
        this.dragEnd();
        this.act(t.text);
      };
    }
  }

  dragEnd() {
    for (const arrow of this.players.querySelectorAll(".il-arrow.drop")) {
      arrow.classList.remove("drop");
      arrow.ondragover = null;
      arrow.ondrop = null;
    }
  }

  tapFor(name) {
    const m = this.mode;
    const v = this.view();
    if (m && ["control", "neutralize", "destroy"].includes(m.type)) {
      const attacks = this.of("attack").filter((a) => a.type === m.type);
      if (m.target && m.target !== name) {
        const leaf = attacks.find((a) => a.target === m.target && a.attacker === name);
        if (leaf) return () => this.act(leaf.text);
      }
      if (attacks.some((a) => a.target === name)) {
        return () => {
          this.mode = { ...m, target: m.target === name ? null : name };
          this.update();
        };
      }
      return null;
    }
    if (m && m.type === "transfer") {
      const ts = this.of("transfer");
      if (m.source && ts.some((t) => t.source === m.source && t.dest === name)) return () => this.askTransfer(m.source, name);
      if (ts.some((t) => t.source === name)) {
        return () => {
          this.mode = { ...m, source: m.source === name ? null : name };
          this.update();
        };
      }
      return null;
    }
    if (m && m.type === "move") {
      if (this.of("move").some((t) => t.group === name)) {
        return () => {
          this.mode = { ...m, group: m.group === name ? null : name };
          this.update();
        };
      }
      return null;
    }
    if (m && m.type === "drop") {
      const leaf = this.of("drop").find((t) => t.group === name);
      return leaf ? () => this.confirm(`Drop ${name}?`, `${name} and its puppets go back to the uncontrolled area.`, leaf.text) : null;
    }
    if (v.phase === "attack") {
      const leaf = this.of("aid").find((t) => t.card === name);
      if (leaf) return () => this.act(leaf.text);
    }
    if (v.phase === "price") {
      const leaf = this.of("ask").find((t) => t.group === name);
      if (leaf) return () => this.act(leaf.text);
    }
    return null;
  }

  /** Free arrows the current choice can use: "host|direction" → handler. */
  spots() {
    const out = new Map();
    const v = this.view();
    if (this.mode && this.mode.type === "move" && this.mode.group) {
      for (const t of this.of("move").filter((t) => t.group === this.mode.group)) out.set(`${t.host}|${t.direction}`, () => this.act(t.text));
    }
    if (v.phase === "place") {
      for (const t of this.of("place")) out.set(`${t.host}|${t.direction}`, () => this.act(t.text));
    }
    return out;
  }

  showDetail(name) {
    this.detail = this.detail === name ? null : name;
    this.update();
  }

  findCard(name) {
    const v = this.view();
    for (const s of v.structures) {
      const c = s.cards.find((x) => x.name === name);
      if (c) return { card: c, seat: s.seat };
    }
    const c = v.uncontrolled.find((x) => x.name === name);
    return c ? { card: c, seat: null } : null;
  }

  // --- small forms -------------------------------------------------------------------

  async confirm(title, text, action) {
    const ok = await dialog(title, (close) =>
      h("div", {}, h("p", {}, text), h("div", { class: "row end" }, h("button", { type: "button", onClick: () => close(false) }, "Cancel"), h("button", { type: "button", class: "primary", id: "il-confirm", onClick: () => close(true) }, "Confirm"))),
    );
    if (ok) await this.act(action);
  }

  /** Ask for an amount among the amounts some leaves offer; resolves with the leaf or null. */
  amountDialog(title, text, options, id) {
    const amounts = options.map((o) => o.amount);
    const max = Math.max(...amounts);
    return dialog(title, (close) => {
      const input = h("input", { type: "number", id: `${id}-amount`, min: Math.min(...amounts), max, value: Math.min(...amounts), class: "il-amount" });
      const error = h("p", { class: "form-error", role: "alert" });
      return h(
        "form",
        {
          onSubmit: (e) => {
            e.preventDefault();
            const leaf = options.find((o) => o.amount === Number(input.value));
            if (!leaf) {
              error.textContent = `Choose an amount from ${Math.min(...amounts)} to ${max} MB.`;
              return;
            }
            close(leaf);
          },
        },
        h("p", {}, text),
        h("label", { class: "field" }, `Megabucks (up to ${max})`, input),
        error,
        h("div", { class: "row end" }, h("button", { type: "button", onClick: () => close(null) }, "Cancel"), h("button", { type: "submit", class: "primary", id: `${id}-send` }, "Confirm")),
      );
    });
  }

  async askTransfer(source, dest) {
    const options = this.of("transfer").filter((t) => t.source === source && t.dest === dest);
    const leaf = await this.amountDialog("Transfer money", `From ${source} to ${dest}.`, options, "il-transfer");
    if (leaf) await this.act(leaf.text);
  }

  async offerDialog() {
    const offers = this.of("offer");
    const items = [...new Set(offers.map((o) => o.item))];
    const seats = [...new Set(offers.map((o) => o.to))];
    const result = await dialog("Give a group or special away", (close) => {
      const item = h("select", { id: "il-offer-item" }, items.map((i) => h("option", { value: i }, i)));
      const to = h("select", { id: "il-offer-to" }, seats.map((s) => h("option", { value: s }, this.who(s))));
      return h(
        "form",
        {
          onSubmit: (e) => {
            e.preventDefault();
            close(offers.find((o) => o.item === item.value && o.to === Number(to.value)) || null);
          },
        },
        h("p", { class: "small" }, "You name your price next (a group of theirs, money, or nothing); they accept or decline."),
        h("label", { class: "field" }, "What", item),
        h("label", { class: "field" }, "To", to),
        h("div", { class: "row end" }, h("button", { type: "button", onClick: () => close(null) }, "Cancel"), h("button", { type: "submit", class: "primary", id: "il-offer-send" }, "Offer")),
      );
    });
    if (result) await this.act(result.text);
  }

  async payDialog() {
    const pays = this.of("pay");
    const seats = [...new Set(pays.map((o) => o.to))];
    const result = await dialog("Give money away", (close) => {
      const to = h("select", { id: "il-pay-to" }, seats.map((s) => h("option", { value: s }, this.who(s))));
      const max = Math.max(...pays.map((p) => p.amount));
      const amount = h("input", { type: "number", id: "il-pay-amount", min: 1, max, value: 1 });
      return h(
        "form",
        {
          onSubmit: (e) => {
            e.preventDefault();
            close(pays.find((p) => p.to === Number(to.value) && p.amount === Number(amount.value)) || null);
          },
        },
        h("label", { class: "field" }, "To", to),
        h("label", { class: "field" }, `Megabucks from your Illuminati (up to ${max})`, amount),
        h("div", { class: "row end" }, h("button", { type: "button", onClick: () => close(null) }, "Cancel"), h("button", { type: "submit", class: "primary", id: "il-pay-send" }, "Give")),
      );
    });
    if (result) await this.act(result.text);
  }

  // --- drawing: status, attack, centre -----------------------------------------------

  drawStatus() {
    const v = this.view();
    const me = this.ctx.mySeat();
    const owed = v.owed;
    const prompt = this.ctx.state.observation.turn && this.ctx.state.observation.turn.owed[0];
    const parts = [];
    if (v.phase === "over") {
      const names = v.winners.map((s) => this.who(s)).join(" and ");
      parts.push(h("div", { class: "il-main il-over", id: "il-winner" }, v.winners.length ? `${names} ${v.winners.length > 1 || v.winners[0] === me ? "win" : "wins"}` : "The game is over", v.reason ? `: ${v.reason}` : ""));
    } else if (v.phase === "choose") {
      parts.push(h("div", { class: ["il-main", owed && owed.seat === me && "il-my-turn"] }, owed && owed.seat === me ? "Your choice: tap the Illuminati you want to lead." : `${this.who(owed.seat)} is choosing an Illuminati.`));
    } else {
      const mine = v.active === me;
      parts.push(
        h(
          "div",
          { class: ["il-main", owed && owed.seat === me && "il-my-turn"] },
          h("span", { class: "swatch big", style: { background: this.seatColour(v.active) } }),
          `${this.who(v.active)}${mine ? "r" : "'s"} turn · regular actions ${v.actions_used}/2`,
        ),
      );
      const words = prompt ? prompt.prompt : owed ? owed.prompt || owed.kind : "";
      if (owed) parts.push(h("div", { class: "il-why", id: "il-waiting" }, owed.seat === me ? `You: ${words}` : `Waiting for ${this.who(owed.seat)}: ${words}`));
    }
    parts.push(
      h(
        "div",
        { class: "il-facts small muted" },
        // Past the last round the counter has moved on; "Round 2 of 1" would read as a fault.
        v.round_limit && v.round > v.round_limit ? `All ${v.round_limit} round${v.round_limit === 1 ? "" : "s"} played` : `Round ${v.round}${v.round_limit ? ` of ${v.round_limit}` : ""}`,
        ` · ${v.groups_needed} groups win · deck `,
        h("span", { id: "il-deck" }, String(v.deck)),
        ` cards · dead pile ${v.dead.length}`,
      ),
    );
    if (v.bank) parts.push(bankLine(v.bank));
    for (const note of v.notes || []) parts.push(h("div", { class: "il-note small", dataset: { note: "1" } }, note));
    fill(this.status, parts);
  }

  drawAttack() {
    const v = this.view();
    if (v.attack) {
      fill(this.attackEl, drawAttack(v.attack, v, this.ctx, this.countdown()));
      return;
    }
    const last = lastResult(v, this.memo);
    // A move waiting for its mover's yes or no comes first: it is what the table waits for.
    const q = v.move_question;
    const answers = q ? this.acts.filter((a) => a.kind === "accept" || a.kind === "decline") : [];
    fill(
      this.attackEl,
      q ? moveQuestionPanel(q, (s) => this.who(s), answers, (text) => this.act(text)) : null,
      // The log's sentence and the server's numbers for the same attack go in one box.
      last && !(v.last_attack && sameAttack(last.head, v.last_attack)) ? h("div", { class: "il-result", id: "il-result" }, h("div", { class: "small muted" }, last.head), h("strong", {}, last.text)) : null,
      v.last_attack ? lastAttackBox(v.last_attack, (s) => this.who(s), last && sameAttack(last.head, v.last_attack) ? last.text : null) : null,
    );
  }

  drawCentre() {
    const v = this.view();
    const cards = v.uncontrolled.map((c) => {
      const l = this.look(c.name);
      return cardFace(c, { tag: "button", class: ["il-loose", l.class], onClick: l.onClick });
    });
    const detail = this.detail && this.findCard(this.detail);
    fill(
      this.centre,
      h("div", { class: "il-zone", id: "il-uncontrolled" }, h("div", { class: "il-zone-title" }, `Uncontrolled groups (${v.uncontrolled.length})`), h("div", { class: "il-loose-row" }, cards.length ? cards : h("span", { class: "muted small" }, "none"))),
      h(
        "div",
        { class: "il-zone il-piles" },
        h("div", { class: "il-deck", title: "the draw pile, face down" }, h("span", { class: "il-back-mark" }, "◈"), h("span", {}, `${v.deck} in the deck`)),
        h("details", { class: "il-dead", id: "il-dead" }, h("summary", {}, `Dead pile (${v.dead.length})`), v.dead.length ? h("ul", {}, v.dead.map((n) => h("li", {}, n))) : h("p", { class: "muted small" }, "empty")),
      ),
      detail ? h("div", { class: "il-detail", id: "il-detail" }, h("strong", {}, detail.card.name), h("div", {}, detail.card.ability || ""), h("div", { class: "small muted" }, detail.seat === null ? "uncontrolled" : `in ${this.who(detail.seat)} power structure`.replace("You power", "your power"))) : null,
    );
  }

  // --- drawing: what I can do --------------------------------------------------------

  button(label, action, attrs = {}) {
    return h("button", { type: "button", class: attrs.class || "", id: attrs.id, dataset: { action }, onClick: () => this.act(action) }, label);
  }

  drawControls() {
    const v = this.view();
    const acts = this.acts;
    const parts = [];
    if (!acts.length) {
      fill(this.controls);
      return;
    }
    const phase = v.phase;
    if (phase === "choose") parts.push(this.chooseArea());
    else if (phase === "goal") parts.push(h("div", { class: "il-prompt", id: "il-goal" }, h("strong", {}, `${this.of("goal")[0].label}: only you will know it.`), h("div", { class: "row" }, this.of("goal").map((g) => this.button(g.name, g.text)))));
    else if (phase === "keep") parts.push(this.keepPrompt());
    else if (phase === "main" || phase === "reorganize") parts.push(this.turnBar());
    else if (phase === "attack") parts.push(this.attackBar());
    else if (["react", "after_roll", "secrets", "start"].includes(phase)) parts.push(this.answerBar());
    else if (phase === "place") parts.push(this.placeDialog());
    else if (phase === "price") parts.push(this.priceBar());
    else if (phase === "answer") parts.push(this.answerOffer());
    parts.push(
      h(
        "details",
        // Kept open across redraws: news from the table (a message, an answer) redraws the
        // controls, and the list the player opened must not fold away under the mouse.
        { class: "il-all", id: "il-all-options", open: Boolean(this.allOpen), onToggle: (e) => { this.allOpen = e.target.open; } },
        h("summary", {}, `Every option as notation (${acts.length}${acts.length > 400 ? ", the first 400 shown" : ""})`),
        h("div", { class: "il-all-list" }, acts.slice(0, 400).map((a) => this.button(a.text, a.text, { class: "small" }))),
      ),
    );
    fill(this.controls, parts);
  }

  chooseArea() {
    const avail = new Map((this.view().available_illuminati || []).map((c) => [c.name, c]));
    return h(
      "div",
      { class: "il-prompt", id: "il-choose" },
      h("strong", {}, "Tap an Illuminati card to lead your conspiracy."),
      h(
        "div",
        { class: "il-choose-row" },
        this.of("take").map((t) =>
          avail.has(t.name)
            ? cardFace(avail.get(t.name), { tag: "button", class: "il-choice", onClick: () => this.act(t.text), label: t.text })
            : h("button", { type: "button", class: "il-card il-illuminati il-choice", dataset: { card: t.name }, "aria-label": t.text, onClick: () => this.act(t.text) }, h("span", { class: "il-name" }, t.name)),
        ),
      ),
    );
  }

  keepPrompt() {
    const me = this.view().players[this.ctx.mySeat()];
    const drawn = me.hand.find((e) => e.decided === false);
    return h(
      "div",
      { class: "il-prompt", id: "il-keep" },
      h("strong", {}, `You drew a special card${drawn ? `: ${drawn.card}` : ""}.`),
      drawn && drawn.text ? h("div", { class: "small" }, drawn.text) : null,
      h("div", { class: "row" }, this.of("keep").map((k) => this.button(k.up ? "Keep it face up" : "Keep it face down (secret)", k.text, { id: k.up ? "il-keep-up" : "il-keep-down" }))),
    );
  }

  turnBar() {
    const v = this.view();
    const attacks = this.of("attack");
    const modeButtons = [];
    for (const type of ["control", "neutralize", "destroy"]) {
      if (attacks.some((a) => a.type === type)) modeButtons.push(this.modeButton(type));
    }
    for (const type of ["transfer", "move", "drop"]) if (this.of(type).length) modeButtons.push(this.modeButton(type));
    const extra = [];
    for (const a of [...this.of("attackagain"), ...this.of("recycle")]) extra.push(this.button(a.label, a.text, { id: `il-${a.kind}` }));
    if (this.of("offer").length) extra.push(h("button", { type: "button", id: "il-offer", onClick: () => this.offerDialog() }, "Give away…"));
    if (this.of("pay").length) extra.push(h("button", { type: "button", id: "il-pay", onClick: () => this.payDialog() }, "Give money…"));
    const end = [...this.of("pass"), ...this.of("done")].map((a) => this.button(a.kind === "pass" ? "Pass (collect 5 MB)" : "Done: end the turn", a.text, { id: `il-${a.kind}`, class: "primary" }));
    const hint = this.mode ? h("div", { class: "il-hint", id: "il-hint" }, HINTS[this.mode.type](this.mode), this.oddsHint(), " ", h("button", { type: "button", class: "small", id: "il-cancel", onClick: () => { this.mode = null; this.update(); } }, "Cancel")) : null;
    return h(
      "div",
      { class: "il-prompt il-turn", id: "il-turn" },
      v.phase === "reorganize" ? h("strong", {}, `Reorganize freely (${v.reorganize ? v.reorganize.moves : 0} of ${v.reorganize ? v.reorganize.limit : "?"} moves), then Done.`) : null,
      h("div", { class: "row il-modes" }, modeButtons, extra, end),
      hint,
      this.playRow(),
      this.lasersRow(),
    );
  }

  /**
   * The number needed by each attacker on the chosen target, when the server sends the odds
   * of attacks not yet announced (an observation field `attack_odds`: notation → need).
   */
  oddsHint() {
    const odds = this.view().attack_odds;
    const m = this.mode;
    if (!odds || !m || !m.target) return null;
    const rows = this.of("attack")
      .filter((a) => a.type === m.type && a.target === m.target && odds[a.text] !== undefined)
      .map((a) => `${a.attacker}: ${odds[a.text]} or less`);
    return rows.length ? h("div", { class: "small il-odds", id: "il-odds" }, `Needed on two dice before aid and money: ${rows.join(" · ")}`) : null;
  }

  modeButton(type) {
    const on = this.mode && this.mode.type === type;
    return h("button", { type: "button", class: ["il-mode", on && "active"], id: `il-mode-${type}`, "aria-pressed": String(Boolean(on)), onClick: () => this.setMode(type) }, MODES[type]);
  }

  /** Specials the server lets me play now, with their targets where they need one. */
  playRow() {
    const plays = this.of("play");
    if (!plays.length) return null;
    const byCard = new Map();
    for (const p of plays) {
      if (!byCard.has(p.card)) byCard.set(p.card, []);
      byCard.get(p.card).push(p);
    }
    return h(
      "div",
      { class: "row il-plays", id: "il-plays" },
      [...byCard].map(([card, list]) => {
        if (list.length === 1 && !list[0].target) return this.button(`Play ${card}`, list[0].text, { class: "il-play" });
        const select = h("select", { class: "il-play-target", dataset: { card } }, list.map((p) => h("option", { value: p.text }, [p.target, p.using && `with ${p.using}`].filter(Boolean).join(" "))));
        return h("span", { class: "il-play-pick" }, select, h("button", { type: "button", class: "il-play", dataset: { card }, onClick: () => this.act(select.value) }, `Play ${card}`));
      }),
    );
  }

  /**
   * The Orbital Mind Control Lasers: pick a group, then one of the changes the server offers
   * for it (switch, or add / remove / reverse under the option), in the server's words.
   */
  lasersRow() {
    const ls = this.of("lasers");
    if (!ls.length) return null;
    const byGroup = new Map();
    for (const l of ls) {
      if (!byGroup.has(l.group)) byGroup.set(l.group, []);
      byGroup.get(l.group).push(l);
    }
    const changes = h("select", { id: "il-lasers", "aria-label": "change" });
    const show = (group) => fill(changes, (byGroup.get(group) || []).map((l) => h("option", { value: l.text }, l.leafLabel && l.leafLabel !== l.text ? l.leafLabel : l.text)));
    const groups = [...byGroup.keys()];
    const pick = h("select", { id: "il-lasers-group", "aria-label": "group", onChange: (e) => show(e.target.value) }, groups.map((g) => h("option", { value: g }, g)));
    show(groups[0]);
    return h("div", { class: "row il-lasers", id: "il-lasers-row" }, `${ls[0].label}: `, pick, changes, h("button", { type: "button", id: "il-lasers-use", onClick: () => this.act(changes.value) }, "Use"));
  }

  spendForm(spends, label) {
    if (!spends.length) return null;
    const sources = [...new Set(spends.map((s) => s.source || ""))];
    const src = h("select", { id: "il-spend-source" }, sources.map((s) => h("option", { value: s }, s ? `from ${s}` : "from the Illuminati treasury")));
    const max = Math.max(...spends.map((s) => s.amount));
    const amount = h("input", { type: "number", id: "il-spend-amount", min: 1, max, value: 1, class: "il-amount" });
    return h(
      "form",
      {
        class: "row il-spend",
        onSubmit: (e) => {
          e.preventDefault();
          const leaf = spends.find((s) => (s.source || "") === src.value && s.amount === Number(amount.value));
          if (leaf) this.act(leaf.text);
          else toast("That source does not hold so much money.", "warn");
        },
      },
      h("span", {}, label),
      amount,
      "MB",
      sources.length > 1 ? src : null,
      h("button", { type: "submit", id: "il-spend" }, "Spend"),
    );
  }

  attackBar() {
    const aids = this.of("aid");
    const roll = this.of("roll")[0];
    const calloff = this.of("calloff")[0];
    return h(
      "div",
      { class: "il-prompt", id: "il-announce" },
      h("strong", {}, aids.length ? "Tap your highlighted cards to aid the attack; spend money; then announce it." : "Spend money on the attack, then announce it."),
      this.spendForm(this.of("spend"), "Spend"),
      h("div", { class: "row" }, roll ? this.button("Announce the attack", roll.text, { id: "il-roll-button", class: "primary" }) : null, calloff ? this.button("Call it off (no action spent; the cards named have taken part)", calloff.text, { id: "il-calloff" }) : null, this.privilegeButtons()),
      this.playRow(),
    );
  }

  privilegeButtons() {
    return [
      ...this.of("privilege").map((p) => this.button(p.discard ? `Privilege: discard ${p.discard}` : "Make it privileged (5 MB)", p.text, { class: "small" })),
      ...this.of("abolish").map((p) => this.button(`Abolish privilege: discard ${p.first} and ${p.second}`, p.text, { class: "small" })),
    ];
  }

  answerBar() {
    const v = this.view();
    const inter = this.of("interfere");
    const words = {
      react: "Your answer to the attack",
      after_roll: "The dice are rolled: change the roll with a card, or pass",
      secrets: v.playing ? `${this.who(v.playing.seat)} played ${v.playing.card}: answer it, or pass` : "Answer the special card, or pass",
      start: "At the start of the turn: play a card, or pass",
    }[v.phase];
    let interfere = null;
    if (inter.length) {
      const max = Math.max(...inter.map((i) => i.amount));
      const amount = h("input", { type: "number", id: "il-interfere-amount", "aria-label": "megabucks to spend", min: 1, max, value: 1, class: "il-amount" });
      const side = h("select", { id: "il-interfere-side", "aria-label": "which side" }, h("option", { value: "for" }, "for the attack (+1 each)"), h("option", { value: "against" }, "against it (−1 each)"));
      interfere = h(
        "form",
        {
          class: "row il-interfere",
          onSubmit: (e) => {
            e.preventDefault();
            const leaf = inter.find((i) => i.amount === Number(amount.value) && i.against === (side.value === "against"));
            if (leaf) this.act(leaf.text);
          },
        },
        h("span", {}, "Interfere with"),
        amount,
        `MB (up to ${max})`,
        side,
        h("button", { type: "submit", id: "il-interfere" }, "Interfere"),
      );
    }
    const pass = this.of("pass")[0];
    return h(
      "div",
      { class: "il-prompt il-react", id: "il-react" },
      h("strong", {}, words),
      this.spendForm(this.of("spend"), "Defend with"),
      interfere,
      this.playRow(),
      h("div", { class: "row" }, this.privilegeButtons(), pass ? this.button("Pass", pass.text, { id: "il-pass", class: "primary" }) : null),
    );
  }

  placeDialog() {
    const v = this.view();
    const pending = v.pending[0];
    const places = this.of("place");
    const release = this.of("release")[0];
    return h(
      "div",
      { class: "il-prompt il-place", id: "il-place-dialog", role: "dialog", "aria-label": "place a group" },
      h("strong", {}, `${pending ? pending.group : "A group"} needs a place in your power structure.`),
      h("div", { class: "small" }, "Tap a highlighted free arrow, or choose below. What is released goes to the uncontrolled area."),
      h("div", { class: "row" }, places.map((p) => this.button(`on ${p.host}, ${p.direction}`, p.text, { class: "il-place-option" }))),
      release ? h("div", { class: "row" }, this.button(`Release ${release.group}`, release.text, { id: "il-release", class: "danger" })) : null,
    );
  }

  priceBar() {
    const v = this.view();
    const o = v.offer;
    const asks = this.of("ask");
    const groups = asks.filter((a) => a.group);
    const money = asks.filter((a) => a.money);
    const none = this.of("asknothing")[0];
    const groupSel = groups.length ? h("select", { id: "il-ask-group" }, groups.map((g) => h("option", { value: g.text }, g.group))) : null;
    const max = money.length ? Math.max(...money.map((m) => m.amount || m.money)) : 0;
    const amount = money.length ? h("input", { type: "number", id: "il-ask-money", min: 1, max, value: 1, class: "il-amount" }) : null;
    return h(
      "div",
      { class: "il-prompt", id: "il-price" },
      h("strong", {}, `Your offer of ${o.item || `${o.money} MB`} to ${this.who(o.receiver)}: name the price.`),
      h("div", { class: "row" }, none ? this.button("Nothing (a gift)", none.text, { id: "il-ask-nothing" }) : null),
      groupSel ? h("div", { class: "row" }, "A group of theirs:", groupSel, h("button", { type: "button", onClick: () => this.act(groupSel.value) }, "Ask for it")) : null,
      amount ? h("div", { class: "row" }, "Money:", amount, "MB", h("button", { type: "button", id: "il-ask-money-send", onClick: () => { const leaf = money.find((m) => m.money === Number(amount.value)); if (leaf) this.act(leaf.text); } }, "Ask for it")) : null,
    );
  }

  answerOffer() {
    const v = this.view();
    const o = v.offer;
    const what = o.item || `${o.money} MB`;
    const price = o.price_group ? `${o.price_group} in return` : o.price_money ? `${o.price_money} MB in return` : "nothing in return";
    return h(
      "div",
      { class: "il-prompt il-offer", id: "il-offer-prompt" },
      h("strong", {}, `${this.who(o.giver)} offers you ${what} for ${price}.`),
      h("div", { class: "row" }, this.of("accept").map((a) => this.button("Accept", a.text, { id: "il-accept", class: "primary" })), this.of("decline").map((a) => this.button("Decline", a.text, { id: "il-decline" }))),
    );
  }

  // --- drawing: the players and their structures -------------------------------------

  drawToolbar() {
    const v = this.view();
    const focusButton = (key, label) => h("button", { type: "button", class: ["small", this.focus === key && "active"], dataset: { focus: key }, onClick: () => { this.focus = key; this.update(); } }, label);
    fill(
      this.toolbar,
      h("span", { class: "small muted" }, "Show: "),
      focusButton("all", "Everyone"),
      v.players.filter((p) => p.illuminati).map((p) => focusButton(String(p.seat), p.seat === this.ctx.mySeat() ? "Mine" : seatName(p.seat))),
      this.standingBox(),
      h("span", { class: "il-zoom" }, h("button", { type: "button", class: "small", id: "il-zoom-out", "aria-label": "zoom out", onClick: () => this.setZoom(-1) }, "−"), h("span", { class: "small" }, `${Math.round(this.zoom * 100)}%`), h("button", { type: "button", class: "small", id: "il-zoom-in", "aria-label": "zoom in", onClick: () => this.setZoom(1) }, "+")),
    );
  }

  /**
   * The standing pass: kept by the server, which passes for this seat at once whenever the
   * start of another player's turn asks it (everyone holding a special card is asked alike).
   */
  standingBox() {
    const v = this.view();
    if (this.ctx.mySeat() === null || !v || v.phase === "over" || v.phase === "choose") return null;
    if (this.standing === undefined) {
      this.standing = null;  // loading
      api.standing(this.ctx.gameId).then(
        (out) => { this.standing = out; this.update(); },
        () => { this.standing = { settings: [] }; },
      );
    }
    const setting = this.standing && this.standing.settings.find((x) => x.name === "start_pass");
    if (this.standing && !setting) return null;
    return h(
      "label",
      { class: "small il-standing", id: "il-standing", title: "You are still asked like everyone holding a special card; the server answers “pass” for you at once." },
      h("input", { type: "checkbox", id: "il-standing-pass", checked: Boolean(setting && setting.on), disabled: !setting, onChange: (e) => this.setStanding(e.target.checked) }),
      " Always pass at the start of others’ turns",
    );
  }

  async setStanding(on) {
    try {
      this.standing = await api.saveStanding(this.ctx.gameId, "start_pass", on);
      toast(on ? "You will pass at once at the start of others’ turns." : "You will be asked at the start of others’ turns again.");
    } catch (err) {
      toast(`Not changed: ${err.message || err}`, "error");
    }
    this.update();
  }

  setZoom(step) {
    this.zoom = Math.min(2, Math.max(0.5, Math.round((this.zoom + step * 0.25) * 100) / 100));
    this.update();
  }

  drawPlayers() {
    const v = this.view();
    const me = this.ctx.mySeat();
    const narrow = window.innerWidth < 700;
    const cell = (narrow ? 24 : 34) * this.zoom;
    const spots = this.spots();
    const shown = v.players.filter((p) => this.focus === "all" || String(p.seat) === this.focus);
    shown.sort((a, b) => (b.seat === me) - (a.seat === me));  // one's own structure first
    fill(
      this.players,
      shown.map((p) => {
        const s = v.structures[p.seat];
        const owedHere = v.owed && v.owed.seat === p.seat;
        return h(
          "section",
          { class: ["il-player", p.seat === me && "me", p.eliminated && "out", v.active === p.seat && v.phase !== "over" && "active", owedHere && "owed"], dataset: { seat: p.seat }, style: { "--seat": this.seatColour(p.seat) } },
          h(
            "div",
            { class: "il-player-head" },
            h("span", { class: "swatch", style: { background: this.seatColour(p.seat) } }),
            h("strong", {}, this.who(p.seat)),
            p.illuminati ? h("span", { class: "il-ill-name" }, p.illuminati) : h("span", { class: "muted" }, "no Illuminati yet"),
            h("span", { class: "il-treasury", dataset: { treasury: p.treasury } }, `${p.treasury} MB`),
            h("span", { class: "small muted il-count", dataset: { groups: p.groups } }, `${p.groups}/${v.groups_needed} groups`),
            v.active === p.seat && v.phase !== "over" ? h("span", { class: "badge" }, "turn") : null,
            owedHere ? h("span", { class: "badge il-to-act" }, "to act") : null,
            p.eliminated ? h("span", { class: "badge" }, "out") : null,
          ),
          p.goal ? h("div", { class: "small il-goal" }, `Goal: ${p.goal}`) : null,
          p.secret_goal ? h("div", { class: "small il-secret", id: "il-secret-goal" }, `Secret: ${p.secret_goal}`) : null,
          h("div", { class: "il-hand", dataset: { count: p.hand_size } }, p.hand.length ? p.hand.map((e) => specialCard(e)) : h("span", { class: "muted small" }, "no special cards")),
          h("div", { class: "il-grid-wrap" }, drawStructure(s, cell, (c) => this.look(c.name), spots)),
        );
      }),
    );
  }
}

/** Card names are never cut inside a word: a word wider than its card gets a smaller type. */
export function fitNames(root) {
  for (const el of root.querySelectorAll(".il-name")) {
    el.style.fontSize = "";
    let size = parseFloat(getComputedStyle(el).fontSize);
    for (let i = 0; i < 4 && el.scrollWidth > el.clientWidth + 0.5 && size > 3; i++) {
      size = Math.max(3, Math.floor(((size * el.clientWidth) / el.scrollWidth) * 10) / 10 - 0.1);
      el.style.fontSize = `${size}px`;
    }
  }
}
