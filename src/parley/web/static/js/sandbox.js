// The sandbox: set up a position (paste its text), play every seat of it, share it.
//
// A sandbox is a server game whose owner plays every seat; the board is the game's own page,
// with a seat switcher in the top bar. The page here takes a position three ways: pasted,
// from a link (`#/sandbox?p=…`: the position's text, compressed, in the address), or from a
// moment of a game ("continue from here": `#/sandbox?from=ID&at=SEQ`, written by the server
// as the asker may see it, everything hidden from them drawn anew).

import { api, ApiError } from "./api.js";
import { byId, fill, h, toast } from "./dom.js";
import { gameTypes } from "./lobby.js";

const errorText = (err) => (err instanceof ApiError ? err.message : String((err && err.message) || err));

function toBase64Url(bytes) {
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

async function squeeze(bytes, stream) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

/** A position's text, deflated and in base64url: the `p` of a sandbox link. */
export async function packPosition(text) {
  return toBase64Url(await squeeze(new TextEncoder().encode(text), new CompressionStream("deflate-raw")));
}

/** The text of a packed position (throws on anything else). */
export async function unpackPosition(packed) {
  return new TextDecoder().decode(await squeeze(fromBase64Url(packed), new DecompressionStream("deflate-raw")));
}

/** The address of a sandbox page holding `text`. */
export async function shareLink(text) {
  const base = `${location.origin}${location.pathname}`;
  return `${base}#/sandbox?p=${await packPosition(text)}`;
}

/** The sandbox page's address for "continue from here" at `seq` of game `id`. */
export function continueHash(id, seq) {
  return `#/sandbox?from=${encodeURIComponent(id)}${seq === undefined || seq === null ? "" : `&at=${encodeURIComponent(seq)}`}`;
}

async function copy(text, what) {
  try {
    await navigator.clipboard.writeText(text);
    toast(`${what} copied.`);
  } catch {
    toast(`Copy it from the box: the browser did not allow copying.`, "error");
  }
}

/** Items of a game page's menu: "continue from here" for every game, and in a sandbox the
 * seat switcher (put in the top bar beside the menu, so the seat played is always in view). */
export function sandboxMenu(view, item) {
  const g = view.summary;
  const items = [];
  if (!g || g.status === "lobby") return items;
  const label = g.sandbox ? "Share this position…" : "Continue from here in a sandbox";
  items.push(
    item("menu-sandbox", label, () => {
      const shown = (view.history && view.history.shown()) || null;
      location.hash = continueHash(view.gameId, shown ? shown.seq : null);
    }),
  );
  if (g.sandbox) seatSwitcher(view);
  return items;
}

function seatSwitcher(view) {
  const g = view.summary;
  const bar = byId("topbar-game");
  if (!bar || !Array.isArray(g.seats) || !g.seats.length) return;
  const mine = view.mySeat();
  let box = byId("sandbox-seats");
  if (!box) {
    const select = h("select", {
      id: "sandbox-seat",
      "aria-label": "Seat you play in this sandbox",
      onChange: async (e) => {
        const seat = Number(e.target.value);
        try {
          await api.sandboxSeat(view.gameId, seat);
          window.dispatchEvent(new HashChangeEvent("hashchange"));  // the page again, as that seat
        } catch (err) {
          toast(errorText(err), "error");
        }
      },
    });
    box = h("label", { id: "sandbox-seats", class: "sandbox-seats" }, h("span", { class: "sandbox-tag" }, "Sandbox"), select);
    const menu = view.header && view.header.menu;
    if (menu && menu.parentNode === bar) bar.insertBefore(box, menu);
    else bar.append(box);
  }
  const select = byId("sandbox-seat");
  fill(select, g.seats.map((s) => h("option", { value: s.seat, selected: s.seat === mine }, s.name)));
}

export class SandboxView {
  constructor(query) {
    this.name = "sandbox";
    this.query = query;
  }

  mount(app) {
    this.message = h("p", { class: "form-error", role: "alert", id: "sandbox-error" });
    this.note = h("p", { class: "muted small", id: "sandbox-note" });
    this.type = h("select", { id: "sandbox-game", name: "game", "aria-label": "Game" });
    this.text = h("textarea", { id: "sandbox-position", rows: 14, spellcheck: false, "aria-label": "Position", placeholder: "Paste a position here (the game's position format: JSON, as `parley position` prints it)" });
    this.link = h("input", { id: "sandbox-link", readonly: true, "aria-label": "Link to this position" });
    this.text.addEventListener("input", () => this.pickGame());
    const start = h("button", { type: "submit", class: "primary", id: "sandbox-start" }, "Play it in a sandbox");
    const form = h(
      "form",
      {
        class: "card sandbox-card",
        id: "sandbox-form",
        onSubmit: (e) => {
          e.preventDefault();
          this.start(start);
        },
      },
      h("h1", { class: "sandbox-title" }, "Sandbox"),
      h("p", { class: "muted" }, "Set up a position and play every seat of it yourself: switch seats in the top bar of the game. A sandbox is private and nobody else plays in it."),
      h("label", { for: "sandbox-game" }, "Game"),
      this.type,
      h("label", { for: "sandbox-position" }, "Position"),
      this.text,
      this.note,
      this.message,
      h("div", { class: "row" }, start, h("button", { type: "button", id: "sandbox-copy", onClick: () => copy(this.text.value, "The position") }, "Copy the text"), h("button", { type: "button", id: "sandbox-share", onClick: () => this.share() }, "Make a link")),
      h("label", { for: "sandbox-link" }, "Link (opens this page with the position filled in; the one who opens it signs in with a name first)"),
      this.link,
    );
    app.append(h("div", { class: "sandbox-page" }, form));
    this.load();
  }

  async load() {
    try {
      const catalog = await gameTypes();
      fill(this.type, catalog.games.map((g) => h("option", { value: g.name }, g.title)));
    } catch (err) {
      this.message.textContent = errorText(err);
    }
    const q = this.query;
    try {
      if (q.get("p")) {
        const packed = await unpackPosition(q.get("p"));
        try {
          this.text.value = JSON.stringify(JSON.parse(packed), null, 2);  // sent compact, read laid out
        } catch {
          this.text.value = packed;  // the reader will say what is wrong with it
        }
        this.note.textContent = "The position of the link.";
        this.link.value = location.href;
      } else if (q.get("from")) {
        const at = q.get("at");
        const out = await api.position(q.get("from"), at === null || at === "" ? null : Number(at));
        this.text.value = JSON.stringify(out.position, null, 2);
        this.note.textContent = out.whole
          ? "Your sandbox's position as it stands."
          : `The game after ${out.at} record entries, as ${out.viewer_seat === null ? "a spectator" : "your seat"} could see it: everything hidden from you was drawn anew.`;
      }
    } catch (err) {
      this.message.textContent = err instanceof ApiError ? errorText(err) : "This link does not hold a position.";
    }
    this.pickGame();
  }

  /** The position's own game, when the text names one. */
  pickGame() {
    try {
      const data = JSON.parse(this.text.value);
      if (data && typeof data.game === "string" && [...this.type.options].some((o) => o.value === data.game)) this.type.value = data.game;
    } catch {
      // not JSON (yet): the reader says so when the sandbox is started
    }
  }

  read() {
    let position;
    try {
      position = JSON.parse(this.text.value);
    } catch (err) {
      throw new Error(`The position is not JSON: ${err.message}`);
    }
    if (!position || typeof position !== "object" || Array.isArray(position)) throw new Error("A position is a JSON object.");
    return position;
  }

  async start(button) {
    this.message.textContent = "";
    let position;
    try {
      position = this.read();
    } catch (err) {
      this.message.textContent = err.message;
      return;
    }
    button.disabled = true;
    try {
      const made = await api.sandbox(this.type.value, position);
      location.hash = `#/game/${encodeURIComponent(made.id)}`;
    } catch (err) {
      this.message.textContent = errorText(err);
    } finally {
      button.disabled = false;
    }
  }

  async share() {
    this.message.textContent = "";
    try {
      this.link.value = await shareLink(JSON.stringify(this.read()));
      copy(this.link.value, "The link");
    } catch (err) {
      this.message.textContent = err.message;
    }
  }
}
