// The So Long Sucker table: piles as stacks of chips, each player's chips and prisoners,
// the dead box, whose decision it is; play by clicking a chip, then a pile. Every
// clickable choice is a leaf of the options tree the server sent.

import { dialog, fill, h, titleCase, toast } from "../dom.js";
import { leaves } from "../options.js";
import { formatProposal, readAction } from "./notation.js";
import { lastCaptureBox } from "./results.js";

// How each chip colour looks (presentation only; the colours' names come from the server).
const CHIP_COLOURS = {
  red: "#d8413a",
  blue: "#2f6ad0",
  green: "#2f9a52",
  yellow: "#eec229",
  purple: "#8a4fc2",
  orange: "#ef8a2a",
};

function chipColour(name) {
  return CHIP_COLOURS[name] || "#999";
}

function chip(colour, attrs = {}) {
  return h("span", { ...attrs, class: ["chip", `chip-${colour}`, attrs.class], style: { "--chip": chipColour(colour) }, title: attrs.title || `${colour} chip` });
}

export class SuckerTable {
  constructor(ctx) {
    this.ctx = ctx;
    this.selectedChip = null;
    this.busy = false;
  }

  // --- renderer interface ------------------------------------------------------------

  tabs() {
    return [];
  }

  seatColour(seat) {
    const seats = this.ctx.summary.seats || [];
    return chipColour(seats[seat] ? String(seats[seat].name).toLowerCase() : "");
  }

  headline() {
    const v = this.view();
    if (!v) return { title: "So Long Sucker" };
    if (v.phase === "over") return { title: "So Long Sucker · game over" };
    return { title: `So Long Sucker · ${titleCase(v.to_act)} to act` };
  }

  mountBoard(el) {
    this.el = el;
    this.status = h("div", { class: "sls-status", id: "sls-status", role: "status" });
    this.piles = h("div", { class: "sls-piles", id: "piles" });
    this.dead = h("div", { class: "sls-dead", id: "dead-box" });
    this.players = h("div", { class: "sls-players", id: "sls-players" });
    this.controls = h("div", { class: "sls-controls", id: "sls-controls" });
    this.capture = h("div", { class: "sls-capture" });
    el.append(
      h("div", { class: "sls-table" }, this.status, h("div", { class: "felt" }, this.piles, this.dead), this.capture, this.controls, this.players),
    );
  }

  update() {
    if (!this.el || !this.view()) return;
    const mine = this.myLeaves();
    const playable = new Set(mine.filter((a) => a.kind === "play").map((a) => a.chip));
    if (this.selectedChip && !playable.has(this.selectedChip)) this.selectedChip = null;
    if (!this.selectedChip && playable.size === 1) this.selectedChip = [...playable][0];
    this.drawStatus();
    this.drawPiles();
    this.drawDead();
    const last = this.view().last_capture;
    fill(this.capture, last ? lastCaptureBox(last, chip) : null);
    this.drawControls();
    this.drawPlayers();
  }

  // --- data --------------------------------------------------------------------------

  view() {
    return this.ctx.state ? this.ctx.state.observation.view : null;
  }

  myLeaves() {
    const tree = this.ctx.state && this.ctx.state.can_act ? this.ctx.state.options : null;
    return leaves(tree).map((l) => ({ ...(readAction(l.action) || { kind: "other" }), text: l.action }));
  }

  async act(text) {
    if (this.busy) return;
    this.busy = true;
    try {
      await this.ctx.act({ action: text });
      this.selectedChip = null;
    } catch {
      // the game view showed the reason
    } finally {
      this.busy = false;
    }
  }

  // --- drawing -----------------------------------------------------------------------

  drawStatus() {
    const v = this.view();
    const obs = this.ctx.state.observation;
    const me = v.you;
    const name = (colour) => {
      const seats = this.ctx.summary.seats || [];
      const seat = seats.find((s) => String(s.name).toLowerCase() === colour);
      const who = seat && seat.player ? ` (${seat.player})` : "";
      return colour === me ? `You (${titleCase(colour)})` : `${titleCase(colour)}${who}`;
    };
    let main;
    let why = "";
    const owed = obs.turn.owed[0];
    switch (v.phase) {
      case "move":
        main = `${name(v.to_act)} ${v.to_act === me ? "have" : "has"} the move.`;
        why = "Play a chip onto a pile or start a new pile.";
        break;
      case "next":
        main = `${name(v.to_act)} ${v.to_act === me ? "choose" : "chooses"} who moves next.`;
        why = `Allowed: ${(v.choices || []).map(titleCase).join(", ")}.`;
        break;
      case "kill":
        main = `${name(v.capture.capturer)} captured a pile and ${v.capture.capturer === me ? "kill" : "kills"} one of its chips.`;
        why = `The captured chips: ${v.capture.chips.join(", ")}. The rest become prisoners.`;
        break;
      case "rescue":
        main = `${name(v.rescue.target)} got the move with no chips.`;
        why = `${name(v.rescue.asked)} ${v.rescue.asked === me ? "are" : "is"} asked to rescue ${titleCase(v.rescue.target)} with prisoners, or to decline.`;
        break;
      default:
        main = v.winner ? `Game over: ${name(v.winner)} ${v.winner === me ? "win" : "wins"} as the last survivor.` : v.draw ? "Game over: a draw." : "Game over.";
    }
    if (owed && owed.prompt && v.phase !== "over") why = why || owed.prompt;
    const last = this.lastAction();
    const latest = (v.latest || []).map((e) => e.charAt(0).toUpperCase() + e.slice(1));
    const mine = me ? v.players.find((p) => p.colour === me) : null;
    const out = mine && !mine.alive;
    const outcome = obs.outcome;
    fill(
      this.status,
      out ? h("div", { class: "sls-defeated", id: "sls-defeated" }, v.phase === "over" ? `You (${titleCase(me)}) were defeated.` : `You (${titleCase(me)}) are defeated and out of the game; you can still watch the table and talk.`) : null,
      h("div", { class: ["sls-main", v.to_act === me && v.phase !== "over" && "my-turn"] }, v.to_act && v.phase !== "over" ? h("span", { class: "swatch big", style: { background: chipColour(v.to_act) } }) : null, main),
      h("div", { class: "sls-why" }, why),
      latest.length ? h("div", { class: "sls-events", id: "sls-events" }, latest.join(" — ")) : null,
      last ? h("div", { class: "sls-last muted small" }, `Last: ${last}`) : null,
      outcome && outcome.ranks ? this.ranksList(outcome, name) : null,
      v.stall && v.stall >= v.stall_limit / 2 ? h("div", { class: "sls-warn small" }, `${v.stall} turn changes without progress; at ${v.stall_limit} the game is a draw.`) : null,
    );
  }

  /** The final places, best first (the server's ranks; ties share a place). */
  ranksList(outcome, name) {
    const seats = this.ctx.summary.seats || [];
    const order = outcome.ranks.map((rank, seat) => ({ rank, seat })).sort((a, b) => a.rank - b.rank || a.seat - b.seat);
    const colourOf = (seat) => String(seats[seat] ? seats[seat].name : this.view().players[seat].colour).toLowerCase();
    return h(
      "div",
      { class: "sls-ranks", id: "sls-ranks" },
      h("strong", {}, "Final ranks"),
      h("ol", {}, order.map(({ rank, seat }) => h("li", { dataset: { rank, colour: colourOf(seat) } }, h("span", { class: "swatch", style: { background: chipColour(colourOf(seat)) } }), `${rank}. ${name(colourOf(seat))}${outcome.winners.includes(seat) ? (outcome.draw ? " — shares the draw" : " — winner") : ""}`))),
    );
  }

  /** The table events an action caused, for its line in the game's log. */
  logNotes(entry) {
    const v = this.view();
    if (!v || entry.type !== "action") return [];
    if (!this.notes) this.notes = new Map();
    (v.recent || []).forEach((text, i) => {
      const at = (v.recent_actions || [])[i];
      if (at === undefined) return;
      if (!this.notes.has(at)) this.notes.set(at, new Set());
      this.notes.get(at).add(text);
    });
    const actions = this.ctx.entries.filter((e) => e.type === "action");
    const ordinal = actions.findIndex((e) => e.seq === entry.seq) + 1;
    return ordinal ? [...(this.notes.get(ordinal) || [])] : [];
  }

  lastAction() {
    const entries = this.ctx.entries.filter((e) => e.type === "action" && e.notation);
    const e = entries[entries.length - 1];
    if (!e) return "";
    return `${this.ctx.seatLabel(e.seat)}: ${e.notation}`;
  }

  drawPiles() {
    const v = this.view();
    const plays = this.myLeaves().filter((a) => a.kind === "play" && a.chip === this.selectedChip);
    const onPile = new Map(plays.filter((a) => a.pile !== null).map((a) => [a.pile, a.text]));
    const newPile = plays.find((a) => a.pile === null);
    const capture = v.phase === "kill" ? v.capture : null;
    const killable = new Map(this.myLeaves().filter((a) => a.kind === "kill").map((a) => [a.chip, a.text]));
    const items = v.piles.map((pile) => {
      const action = onPile.get(pile.number);
      const stack = h(
        "div",
        { class: "stack" },
        pile.chips
          .slice()
          .reverse()
          .map((c, i) => h("span", { class: ["pile-chip", i === 0 && "top"], style: { "--chip": chipColour(c) }, title: `${c}${i === 0 ? " (top)" : ""}` })),
      );
      return h(
        "button",
        {
          type: "button",
          class: ["pile", action && "target"],
          dataset: { pile: pile.number, chips: pile.chips.join(" ") },
          disabled: !action,
          "aria-label": `pile ${pile.number}: ${pile.chips.join(", ")} (bottom to top)${action ? `; ${action}` : ""}`,
          onClick: () => action && this.act(action),
        },
        stack,
        h("span", { class: "pile-label" }, `Pile ${pile.number}`),
      );
    });
    if (newPile) {
      items.push(h("button", { type: "button", class: "pile new-pile target", id: "new-pile", "aria-label": `New pile: ${newPile.text}`, onClick: () => this.act(newPile.text) }, h("span", { class: "new-pile-slot" }, "+"), h("span", { class: "pile-label" }, "New pile")));
    }
    const parts = [];
    if (capture) {
      parts.push(
        h(
          "div",
          { class: "capture", id: "capture" },
          h("div", { class: "capture-title" }, `Captured by ${titleCase(capture.capturer)}${killable.size ? ": click the chip to kill" : ""}`),
          h(
            "div",
            { class: "capture-chips" },
            capture.chips.map((c) => {
              const action = killable.get(c);
              return h("button", { type: "button", class: ["chip-button", action && "target"], disabled: !action, dataset: { kill: c }, title: action || c, onClick: () => action && this.act(action) }, chip(c));
            }),
          ),
        ),
      );
    }
    fill(this.piles, parts, items.length ? items : h("p", { class: "muted empty" }, "No piles yet: the first chip played starts one."));
  }

  drawDead() {
    const v = this.view();
    const dead = Object.entries(v.dead || {});
    fill(
      this.dead,
      h("div", { class: "dead-title" }, "Dead box"),
      dead.length ? h("div", { class: "dead-chips" }, dead.map(([c, n]) => h("span", { class: "count-chip" }, chip(c), `×${n}`))) : h("span", { class: "muted small" }, "empty"),
    );
  }

  drawControls() {
    const mine = this.myLeaves();
    const v = this.view();
    const parts = [];
    const plays = mine.filter((a) => a.kind === "play");
    if (plays.length) {
      const colours = [...new Set(plays.map((a) => a.chip))];
      parts.push(
        h(
          "div",
          { class: "control-row", id: "play-row" },
          h("span", { class: "control-label" }, this.selectedChip ? `Play ${this.selectedChip} on a highlighted pile (or a new pile):` : "Choose a chip to play:"),
          colours.map((c) => h("button", { type: "button", class: ["chip-button", this.selectedChip === c && "selected"], dataset: { chip: c }, "aria-pressed": String(this.selectedChip === c), onClick: () => { this.selectedChip = this.selectedChip === c ? null : c; this.update(); } }, chip(c), c)),
        ),
      );
    }
    const nexts = mine.filter((a) => a.kind === "next");
    if (nexts.length) {
      parts.push(h("div", { class: "control-row", id: "next-row" }, h("span", { class: "control-label" }, "Give the move to:"), nexts.map((a) => h("button", { type: "button", class: "primary", dataset: { next: a.player }, onClick: () => this.act(a.text) }, h("span", { class: "swatch", style: { background: chipColour(a.player) } }), titleCase(a.player)))));
    }
    const kills = mine.filter((a) => a.kind === "kill");
    if (kills.length) {
      parts.push(h("div", { class: "control-row", id: "kill-row" }, h("span", { class: "control-label" }, "Kill one chip of the capture:"), kills.map((a) => h("button", { type: "button", dataset: { kill: a.chip }, onClick: () => this.act(a.text) }, chip(a.chip), `kill ${a.chip}`))));
    }
    const rescues = mine.filter((a) => a.kind === "rescue" || a.kind === "decline");
    if (rescues.length) {
      parts.push(h("div", { class: "control-row", id: "rescue-row" }, h("span", { class: "control-label" }, `Rescue ${titleCase(v.rescue ? v.rescue.target : "")}?`), rescues.map((a) => h("button", { type: "button", class: a.kind === "decline" ? "" : "primary", onClick: () => this.act(a.text) }, a.kind === "decline" ? "Decline" : a.text))));
    }
    const prisonerActs = mine.filter((a) => a.kind === "killPrisoner" || a.kind === "give");
    if (prisonerActs.length) {
      const byChip = new Map();
      for (const a of prisonerActs) {
        if (!byChip.has(a.chip)) byChip.set(a.chip, []);
        byChip.get(a.chip).push(a);
      }
      parts.push(
        h(
          "details",
          { class: "control-row prisoners", id: "prisoner-row" },
          h("summary", {}, "Your prisoners: kill one or give one away (any time)"),
          [...byChip].map(([c, acts]) =>
            h(
              "div",
              { class: "prisoner-actions" },
              chip(c),
              acts.map((a) => h("button", { type: "button", class: "small", dataset: { action: a.text }, onClick: () => this.act(a.text) }, a.kind === "killPrisoner" ? "kill" : `give to ${a.to}`)),
            ),
          ),
        ),
      );
    }
    if (!parts.length && v.phase !== "over" && this.ctx.mySeat() !== null) {
      parts.push(h("p", { class: "muted" }, `Waiting for ${titleCase(v.to_act)}.`));
    }
    fill(this.controls, parts);
  }

  drawPlayers() {
    const v = this.view();
    const seats = this.ctx.summary.seats || [];
    fill(
      this.players,
      v.players.map((p) => {
        const seat = seats.find((s) => String(s.name).toLowerCase() === p.colour);
        const hand = Object.entries(p.hand || {});
        return h(
          "div",
          { class: ["player-card", p.colour === v.you && "me", p.colour === v.to_act && v.phase !== "over" && "to-act", !p.alive && "defeated"], dataset: { colour: p.colour }, style: { "--chip": chipColour(p.colour) } },
          h("div", { class: "player-head" }, h("span", { class: "swatch", style: { background: chipColour(p.colour) } }), h("strong", {}, titleCase(p.colour)), h("span", { class: "muted", title: seat && seat.player ? seat.player : "" }, seat && seat.player ? seat.player : ""), p.colour === v.you ? h("span", { class: "badge" }, "you") : null),
          p.alive
            ? h(
                "div",
                { class: "hand" },
                hand.length
                  ? hand.map(([c, n]) => h("span", { class: ["count-chip", c !== p.colour && "prisoner"], title: c === p.colour ? `${n} own chips` : `${n} ${c} prisoner${n > 1 ? "s" : ""}`, dataset: { chip: c, count: n } }, h("span", { class: "discs" }, Array.from({ length: Math.min(n, 8) }, () => chip(c))), `×${n}`))
                  : h("span", { class: "muted small" }, "no chips"),
              )
            : h("div", { class: "muted" }, "defeated"),
          p.alive ? h("div", { class: "muted small" }, `${p.held} held · ${p.prisoners} prisoner${p.prisoners === 1 ? "" : "s"}`) : null,
        );
      }),
    );
  }

  // --- bargains, in the chat panel ---------------------------------------------------

  chatExtras(channel) {
    const v = this.view();
    if (!v) return null;
    if (channel !== "public" && !v.private_channels) return null;
    const mine = this.myLeaves();
    const answers = new Map();
    for (const a of mine) {
      if (["accept", "reject", "withdraw"].includes(a.kind)) {
        if (!answers.has(a.bargain)) answers.set(a.bargain, []);
        answers.get(a.bargain).push(a);
      }
    }
    const card = (b, agreed) =>
      h(
        "li",
        { class: ["bargain", b.private && "private", agreed && "agreed"], dataset: { bargain: b.number } },
        h("div", { class: "bargain-head" }, h("strong", {}, `#${b.number} ${titleCase(b.from)}`), ` → ${b.to.map(titleCase).join(", ")}`, b.private ? h("span", { class: "badge" }, "private") : null),
        b.terms.length ? h("ul", { class: "terms" }, b.terms.map((t) => h("li", {}, t))) : null,
        b.note ? h("div", { class: "bargain-note" }, `“${b.note}”`) : null,
        b.accepted_by.length ? h("div", { class: "muted small" }, `accepted by ${b.accepted_by.map(titleCase).join(", ")}`) : null,
        !agreed && answers.has(b.number)
          ? h(
              "div",
              { class: "row" },
              answers.get(b.number).map((a) => h("button", { type: "button", class: ["small", a.kind === "accept" && "primary"], dataset: { action: a.text }, onClick: () => this.act(a.text) }, titleCase(a.kind))),
            )
          : null,
      );
    const open = v.bargains.open || [];
    const agreed = v.bargains.agreed || [];
    const canPropose = this.ctx.mySeat() !== null && v.phase !== "over" && this.ctx.summary.status === "active";
    return h(
      "div",
      { class: "bargains", id: "bargains" },
      h(
        "div",
        { class: "bargains-head" },
        h("strong", {}, `Bargains: ${open.length} open${agreed.length ? `, ${agreed.length} agreed` : ""}`),
        canPropose ? h("button", { type: "button", class: "small", id: "propose-bargain", onClick: () => this.propose() }, "Propose a bargain…") : null,
      ),
      open.length ? h("ul", { class: "bargain-list" }, open.map((b) => card(b, false))) : h("p", { class: "muted small" }, "Bargains are promises on record; the rules never enforce them."),
      agreed.length ? h("details", {}, h("summary", {}, "Agreed bargains"), h("ul", { class: "bargain-list" }, agreed.map((b) => card(b, true)))) : null,
    );
  }

  /** Bargain actions, to be shown in the chat among the messages of their channel. */
  chatEvents() {
    const out = [];
    for (const e of this.ctx.entries) {
      if (e.type !== "action" || !e.notation) continue;
      const word = e.notation.split(" ")[0];
      if (!["propose", "accept", "reject", "withdraw"].includes(word)) continue;
      const people = e.audience ? [...e.audience].sort((a, b) => a - b) : null;
      out.push({ seq: e.seq, seat: e.seat, text: e.notation, channel: people ? `${people.join(",")}|` : "public" });
    }
    return out;
  }

  async propose() {
    const v = this.view();
    const me = v.you;
    const colours = v.players.map((p) => p.colour);
    const alive = v.players.filter((p) => p.alive && p.colour !== me).map((p) => p.colour);
    const result = await dialog("Propose a bargain", (close) => {
      const to = alive.map((c) => h("input", { type: "checkbox", value: c, id: `to-${c}` }));
      const terms = h("div", { class: "terms-edit" });
      const note = h("input", { id: "bargain-note", maxlength: 200, placeholder: "a note, e.g. “together against blue?”" });
      const priv = v.private_channels ? h("input", { type: "checkbox", id: "bargain-private" }) : null;
      const preview = h("code", { class: "preview", id: "bargain-preview" });
      const error = h("p", { class: "form-error", role: "alert", id: "bargain-error" });
      const sending = h("button", { type: "submit", class: "primary", id: "bargain-send" }, "Propose");
      // Every choice starts blank: the player builds the promise, nothing is guessed.
      const select = (values, what) => h("select", { "aria-label": what }, h("option", { value: "", selected: true }, `(${what})`), values.map((c) => h("option", { value: c }, c)));
      const rows = [];
      const read = () => ({
        to: to.filter((b) => b.checked).map((b) => b.value),
        terms: rows.map((r) => r.read()),
        note: note.value,
        privately: Boolean(priv && priv.checked),
      });
      const complete = (term) => Object.values(term).every((value) => value !== "");
      const show = () => {
        const p = read();
        const blank = p.terms.some((t) => !complete(t));
        preview.textContent = !p.to.length ? "choose whom to propose to" : blank ? "complete each promise, or remove it" : formatProposal(p);
      };
      const addRow = (type) => {
        const giver = select(colours, "who");
        const count = h("input", { type: "number", min: 1, max: 20, value: 1, class: "count" });
        // The colours a giver may promise come from the server (never the giver's own).
        const mayGive = (v.bargains && v.bargains.may_promise) || {};
        const colour = select([], "colour");
        colour.disabled = true;
        giver.addEventListener("change", () => {
          const allowed = mayGive[giver.value] || [];
          const was = colour.value;
          fill(colour, h("option", { value: "" }, "(colour)"), allowed.map((c) => h("option", { value: c, selected: c === was }, c)));
          colour.disabled = !giver.value;
        });
        const target = select(colours, "to whom");
        const chooser = select(colours, "who");
        const row = h("div", { class: "term-row" });
        const remove = h("button", { type: "button", class: "small", onClick: () => { rows.splice(rows.indexOf(entry), 1); row.remove(); show(); } }, "×");
        if (type === "chips") row.append(giver, " gives ", count, colour, " to ", target, remove);
        else row.append(chooser, " passes the move to ", target, remove);
        const entry = {
          read: () => (type === "chips" ? { type, giver: giver.value, count: count.value, chip: colour.value, to: target.value } : { type, chooser: chooser.value, to: target.value }),
        };
        rows.push(entry);
        row.addEventListener("input", show);
        row.addEventListener("change", show);
        terms.append(row);
        show();
      };
      const form = h(
        "form",
        {
          class: "bargain-form",
          onSubmit: async (event) => {
            event.preventDefault();
            const p = read();
            if (!p.to.length) {
              error.textContent = "Choose at least one player to propose to.";
              return;
            }
            if (p.terms.some((t) => !complete(t))) {
              error.textContent = "Complete each promise (who, what, to whom), or remove it.";
              return;
            }
            if (!p.terms.length && !p.note.trim()) {
              error.textContent = "Add a promise or a note.";
              return;
            }
            // Sent from here: a refusal is shown in the editor, which stays open with its text.
            error.textContent = "";
            sending.disabled = true;
            try {
              await this.ctx.act({ action: formatProposal(p) });
              close(true);
            } catch (err) {
              error.textContent = `Not proposed: ${(err && err.message) || err}`;
            } finally {
              sending.disabled = false;
            }
          },
          onInput: show,
          onChange: show,
        },
        h("div", { class: "checks" }, h("span", {}, "To: "), alive.map((c, i) => h("label", { class: "inline", for: `to-${c}` }, to[i], titleCase(c)))),
        terms,
        h("div", { class: "row" }, h("button", { type: "button", class: "small", onClick: () => addRow("chips") }, "+ chips promise"), h("button", { type: "button", class: "small", onClick: () => addRow("pass") }, "+ pass-the-move promise")),
        note,
        priv ? h("label", { class: "inline" }, priv, "private: only the parties see it") : null,
        h("div", { class: "small muted" }, "As notation: ", preview),
        error,
        h("div", { class: "row end" }, h("button", { type: "button", onClick: () => close(null) }, "Cancel"), sending),
      );
      show();
      return form;
    });
    if (result) toast("Bargain proposed.");
  }
}
