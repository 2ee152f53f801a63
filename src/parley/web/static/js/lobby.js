// Signing in, the list of games, creating a game and joining one by its id.

import { api, ApiError, session } from "./api.js";
import { fill, formatDuration, formatPeriod, h, toast } from "./dom.js";

const PERIODS = [
  [60, "1 minute"],
  [300, "5 minutes"],
  [900, "15 minutes"],
  [1800, "30 minutes"],
  [3600, "1 hour"],
  [6 * 3600, "6 hours"],
  [12 * 3600, "12 hours"],
  [24 * 3600, "24 hours"],
  [48 * 3600, "2 days"],
];

const PRESS_LABELS = {
  full: "Full press: public, private and group chat",
  public: "Public press only",
  none: "No press (gunboat)",
};

let typesCache = null;

/** The games this server runs (cached for the page's life). */
export async function gameTypes() {
  if (!typesCache) typesCache = await api.gameTypes();
  return typesCache;
}

function errorText(err) {
  if (err instanceof ApiError) return err.message;
  return String(err && err.message ? err.message : err);
}

/** The sign-in card (UC 12): a unique username, optionally protected by a password. */
export function signInForm(done) {
  const message = h("p", { class: "form-error", role: "alert", id: "signin-error" });
  const name = h("input", {
    id: "signin-name",
    name: "username",
    autocomplete: "username",
    required: true,
    minlength: 2,
    maxlength: 32,
    pattern: "[A-Za-z0-9][A-Za-z0-9_.\\-]*",
    placeholder: "e.g. bismarck",
  });
  const password = h("input", { id: "signin-password", name: "password", type: "password", autocomplete: "current-password", maxlength: 256 });
  const code = h("input", { id: "signin-code", name: "recovery-code", autocomplete: "off", spellcheck: "false", maxlength: 64, placeholder: "e.g. ABCD-EFGH-…" });
  const submit = h("button", { class: "primary", type: "submit", id: "signin-submit" }, "Sign in");
  const form = h(
    "form",
    {
      class: "card signin",
      onSubmit: async (event) => {
        event.preventDefault();
        message.textContent = "";
        const username = name.value.trim();
        const pw = password.value;
        if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{1,31}$/.test(username)) {
          message.textContent = "A username is 2–32 letters, digits, '_', '.' or '-', starting with a letter or digit.";
          return;
        }
        if (pw && pw.length < 8) {
          message.textContent = "A password needs at least 8 characters (or leave it empty).";
          return;
        }
        submit.disabled = true;
        try {
          let out;
          const recovery = code.value.trim();
          if (recovery) out = await api.recover(username, recovery);  // a name kept with a code
          else try {
            out = await api.signUp(username, pw || undefined);
          } catch (err) {
            if (!(err instanceof ApiError) || err.code !== "username_taken" || !pw) throw err;
            out = await api.logIn(username, pw);  // a returning player with a password
          }
          session.save(out);
          done(out.user);
        } catch (err) {
          if (err instanceof ApiError && err.code === "username_taken") {
            message.textContent = `The username “${username}” is already taken. If it is yours, enter its password or a recovery code below (made with “Keep this name” in the browser where you first used it). Otherwise choose a different one.`;
            password.closest("details").open = true;
          } else if (err instanceof ApiError && err.status === 401 && code.value.trim()) {
            message.textContent = `That recovery code does not open “${username}” (a code works once; make a new one from a browser where you are signed in).`;
          } else if (err instanceof ApiError && err.status === 401) {
            message.textContent = `The username “${username}” is taken and the password does not match it.`;
          } else {
            message.textContent = errorText(err);
          }
          name.focus();
        } finally {
          submit.disabled = false;
        }
      },
    },
    h("h1", {}, "Welcome to Parley"),
    h("p", { class: "muted" }, "Diplomacy, So Long Sucker and other games of negotiation and betrayal. Pick a name to play under."),
    h("label", { for: "signin-name" }, "Username"),
    name,
    h(
      "details",
      { class: "signin-more" },
      h("summary", {}, "Password (optional)"),
      h("p", { class: "muted small" }, "Protect your name with a password so you can sign in again from another browser. Returning players enter theirs here."),
      h("label", { for: "signin-password" }, "Password"),
      password,
      h("label", { for: "signin-code" }, "…or a recovery code"),
      code,
    ),
    message,
    h("div", { class: "row" }, submit, h("a", { href: "#/manual" }, "Read the manual")),
  );
  setTimeout(() => name.focus(), 0);
  return h("div", { class: "center-page" }, form);
}

function statusBadge(status) {
  const text = { lobby: "waiting for players", active: "in progress", finished: "finished", closed: "closed" }[status] || status;
  return h("span", { class: ["badge", `badge-${status}`] }, text);
}

function seatsText(game) {
  if (game.status === "lobby") return `${game.players.length}/${game.seat_count} players`;
  const people = game.seats.filter((s) => s.user).length;
  return `${game.seat_count} seats, ${people} human`;
}

/** "Your move: orders · due in 3 h" where the game waits for you (null elsewhere). */
function yourMove(game) {
  if (!game.you || !game.you.owed || game.status !== "active") return null;
  const left = game.deadline ? ` · due in ${formatDuration(game.deadline.remaining_seconds)}` : "";
  const at = game.deadline ? new Date(Date.now() + game.deadline.remaining_seconds * 1000) : null;
  return h("span", { class: "badge badge-move", title: at ? `deadline ${at.toLocaleString()}` : "" }, `Your move: ${game.you.owed}${left}`);
}

function gameRow(game, { joinable }) {
  const open = h("a", { class: "button", href: `#/game/${encodeURIComponent(game.id)}` }, game.you ? "Open" : "View");
  const actions = [open];
  if (joinable && !game.you && game.status === "active") {
    actions.unshift(
      h(
        "button",
        {
          type: "button",
          onClick: async () => {
            try {
              await api.join(game.id, "spectator");
              location.hash = `#/game/${encodeURIComponent(game.id)}`;
            } catch (err) {
              toast(errorText(err), "error");
            }
          },
        },
        "Watch",
      ),
    );
  }
  if (joinable && !game.you && game.status === "lobby" && game.players.length < game.seat_count) {
    actions.unshift(
      h(
        "button",
        {
          class: "primary",
          type: "button",
          onClick: async () => {
            try {
              await api.join(game.id, "player");
              location.hash = `#/game/${encodeURIComponent(game.id)}`;
            } catch (err) {
              toast(errorText(err), "error");
            }
          },
        },
        "Join",
      ),
    );
  }
  return h(
    "li",
    { class: "game-row", dataset: { gameId: game.id } },
    h(
      "div",
      { class: "game-row-main" },
      h("div", { class: "game-row-title" }, h("strong", {}, game.name), " ", h("span", { class: "muted" }, game.title)),
      game.description ? h("div", { class: "game-row-desc" }, game.description) : null,
      h(
        "div",
        { class: "game-row-meta" },
        statusBadge(game.status),
        yourMove(game),
        h("span", {}, seatsText(game)),
        h("span", {}, `${formatPeriod(game.period_seconds)} per turn`),
        game.host ? h("span", {}, `host ${game.host}`) : null,
        game.sandbox ? h("span", { class: "badge sandbox-badge" }, "sandbox") : game.private ? h("span", { class: "badge" }, "private") : null,
        seedBadge(game),
        h("code", { class: "game-id", title: "game id" }, game.id),
      ),
    ),
    h("div", { class: "game-row-actions" }, actions),
  );
}

/**
 * What a game's seed means for its hidden chance, from the server's `seed_source`: a short
 * label and a sentence, or null when the server drew the seed (nothing to tell).
 */
export function seedNote(game) {
  if (game.seed_source === "host-fixed") {
    return {
      label: "fixed seed",
      text: "Fixed seed: the host chose the seed and this server uses it as given, so the host can know every hidden draw (cards, hiding places, the seat draw).",
      fixed: true,
    };
  }
  if (game.seed_source === "host-mixed") {
    return {
      label: "host seed, mixed",
      text: "The host chose a seed; the server mixed it with a secret of its own, so nobody can foresee a hidden draw.",
      fixed: false,
    };
  }
  return null;
}

/** The lobby row's badge for a game whose host chose its seed. */
function seedBadge(game) {
  const note = seedNote(game);
  return note ? h("span", { class: note.fixed ? "badge badge-seed" : "badge", title: note.text }, note.label) : null;
}

/** The game page's sentence about the seed (empty when the server drew it). */
export function seedParagraph(game) {
  const note = seedNote(game);
  return note ? h("p", { class: `small seed-note${note.fixed ? " fixed" : ""}`, id: "seed-note" }, note.text) : null;
}

export class LobbyView {
  constructor() {
    this.name = "lobby";
  }

  mount(app) {
    this.mine = h("ul", { class: "game-list", id: "my-games" }, h("li", { class: "muted" }, "Loading…"));
    this.open = h("ul", { class: "game-list", id: "open-games" }, h("li", { class: "muted" }, "Loading…"));
    this.createBox = h("div", { class: "card", id: "create-card" }, h("h2", {}, "Create a game"), h("p", { class: "muted" }, "Loading game types…"));
    app.append(
      h(
        "div",
        { class: "lobby" },
        h("h1", { class: "sr-only", id: "lobby-title" }, "Lobby"),
        h(
          "section",
          { class: "lobby-lists" },
          h("div", { class: "card" }, h("div", { class: "card-head" }, h("h2", {}, "Your games"), h("button", { type: "button", class: "linkish", onClick: () => this.refresh() }, "Refresh")), this.mine),
          h("div", { class: "card" }, h("h2", {}, "Open games and games to watch"), this.open),
        ),
        h("section", { class: "lobby-side" }, this.joinCard(), this.createBox),
      ),
    );
    this.refresh();
    this.buildCreate();
    this.timer = setInterval(() => this.refresh(), 15000);
  }

  unmount() {
    clearInterval(this.timer);
  }

  async refresh() {
    try {
      const [mine, open] = await Promise.all([api.myGames(), api.openGames()]);
      // Games waiting for your move first (the server's `you.owed`), soonest deadline first.
      const due = (g) => (g.you && g.you.owed ? (g.deadline ? g.deadline.remaining_seconds : 1e12) : Infinity);
      const active = mine.games.filter((g) => g.status === "lobby" || g.status === "active").sort((a, b) => due(a) - due(b));
      const done = mine.games.filter((g) => g.status !== "lobby" && g.status !== "active");
      fill(
        this.mine,
        active.length || done.length ? [...active, ...done].map((g) => gameRow(g, { joinable: false })) : h("li", { class: "muted" }, "You are in no game yet. Create one, or join an open game."),
      );
      const others = open.games.filter((g) => !g.you);
      others.sort((a, b) => (a.status === b.status ? 0 : a.status === "lobby" ? -1 : 1));
      fill(this.open, others.length ? others.map((g) => gameRow(g, { joinable: true })) : h("li", { class: "muted" }, "No open game is waiting for players right now."));
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        window.dispatchEvent(new Event("parley:signed-out"));
        return;
      }
      toast(errorText(err), "error");
    }
  }

  joinCard() {
    const id = h("input", { id: "join-id", name: "game-id", required: true, placeholder: "game id", maxlength: 32, autocomplete: "off" });
    const code = h("input", { id: "join-code", name: "invite", placeholder: "only for private games", maxlength: 64, autocomplete: "off" });
    const message = h("p", { class: "form-error", role: "alert", id: "join-error" });
    const role = (value, label, checked) => h("label", { class: "inline" }, h("input", { type: "radio", name: "join-role", value, checked }), label);
    return h(
      "form",
      {
        class: "card",
        id: "join-card",
        onSubmit: async (event) => {
          event.preventDefault();
          message.textContent = "";
          const gameId = id.value.trim();
          if (!/^[A-Za-z0-9_-]{1,32}$/.test(gameId)) {
            message.textContent = "A game id is made of letters, digits, '-' and '_'.";
            return;
          }
          const chosen = event.currentTarget.querySelector("input[name=join-role]:checked").value;
          try {
            await api.join(gameId, chosen, code.value.trim() || undefined);
            location.hash = `#/game/${encodeURIComponent(gameId)}`;
          } catch (err) {
            if (err instanceof ApiError && err.status === 404) {
              message.textContent = `There is no game with the id “${gameId}”. Check the id and try again.`;
            } else {
              message.textContent = errorText(err);
            }
          }
        },
      },
      h("h2", {}, "Join a game by id"),
      h("label", { for: "join-id" }, "Game id"),
      id,
      h("div", { class: "row" }, role("player", "as a player", true), role("spectator", "as a spectator", false)),
      h("label", { for: "join-code" }, "Invite code"),
      code,
      message,
      h("button", { class: "primary", type: "submit", id: "join-submit" }, "Join game"),
    );
  }

  async buildCreate() {
    let catalog;
    try {
      catalog = await gameTypes();
    } catch (err) {
      fill(this.createBox, h("h2", {}, "Create a game"), h("p", { class: "form-error" }, errorText(err)));
      return;
    }
    const message = h("p", { class: "form-error", role: "alert", id: "create-error" });
    const type = h("select", { id: "create-type", name: "game" }, catalog.games.map((g) => h("option", { value: g.name }, g.title)));
    const summary = h("p", { class: "muted small" });
    const seats = h("select", { id: "create-seats", name: "seats" });
    const optionsBox = h("div", { class: "option-fields" });
    const name = h("input", { id: "create-name", name: "name", value: "Game", maxlength: 100, required: true });
    const description = h("textarea", { id: "create-description", name: "description", maxlength: 2000, rows: 2, placeholder: "optional: who is this game for, any house rules…" });
    const period = h(
      "select",
      { id: "create-period", name: "period" },
      PERIODS.map(([secs, label]) => h("option", { value: secs, selected: secs === catalog.default_period_seconds }, label)),
    );
    const press = h("select", { id: "create-press", name: "press" }, catalog.press_modes.map((m) => h("option", { value: m }, PRESS_LABELS[m] || m)));
    // Timed rounds of messages only, before each step in which everyone decides at once
    // (the server knows which steps those are).
    const talk = h(
      "select",
      { id: "create-negotiation", name: "negotiation" },
      h("option", { value: "" }, "None: orders and messages together"),
      NEGOTIATION.map(([rounds, messages, seconds]) => h("option", { value: `${rounds},${messages},${seconds}` }, negotiationLabel({ rounds, messages, seconds }))),
    );
    const isPrivate = h("input", { type: "checkbox", id: "create-private", name: "private" });
    const hostRole = h("select", { id: "create-role" }, h("option", { value: "player" }, "I play"), h("option", { value: "spectator" }, "I only host and watch"));
    const fillBots = h("select", { id: "create-fill" }, h("option", { value: "" }, "No: wait for players, start later"), catalog.bots.map((b) => h("option", { value: b }, `Yes: fill empty seats with “${b}” bots and start now`)));

    const optionInputs = new Map();
    const showType = () => {
      const spec = catalog.games.find((g) => g.name === type.value);
      summary.textContent = spec ? spec.summary : "";
      fill(seats);
      for (let n = spec.min_seats; n <= spec.max_seats; n++) seats.append(h("option", { value: n, selected: n === spec.default_seats }, `${n} players`));
      optionInputs.clear();
      fill(optionsBox, spec.options.map((opt) => optionField(opt, optionInputs)));
    };
    type.addEventListener("change", showType);
    showType();

    const form = h(
      "form",
      {
        class: "create-form",
        onSubmit: async (event) => {
          event.preventDefault();
          message.textContent = "";
          const options = {};
          for (const [key, read] of optionInputs) options[key] = read();
          const req = {
            game: type.value,
            name: name.value.trim() || "Game",
            description: description.value,
            options,
            seats: Number(seats.value),
            period_seconds: Number(period.value),
            press: press.value,
            private: isPrivate.checked,
            host_role: hostRole.value,
          };
          if (talk.value) {
            const [rounds, messages, seconds] = talk.value.split(",").map(Number);
            req.negotiation = { rounds, messages, seconds };
          }
          try {
            const game = await api.create(req);
            if (fillBots.value) await api.start(game.id, fillBots.value);
            toast(`Game created. Its id is ${game.id}.`);
            location.hash = `#/game/${encodeURIComponent(game.id)}`;
          } catch (err) {
            message.textContent = errorText(err);
          }
        },
      },
      field("Game", type, "create-type"),
      summary,
      field("Players", seats, "create-seats"),
      optionsBox,
      field("Name", name, "create-name"),
      field("Description", description, "create-description"),
      field("Adjudication period (time per turn)", period, "create-period"),
      field("Press", press, "create-press"),
      field("Negotiation rounds (before each phase everyone orders at once)", talk, "create-negotiation"),
      field("You", hostRole, "create-role"),
      field("Start at once with bots?", fillBots, "create-fill"),
      h("label", { class: "inline" }, isPrivate, "Private: only people with the invite code can join"),
      message,
      h("button", { class: "primary", type: "submit", id: "create-submit" }, "Create game"),
    );
    const sandbox = h("p", { class: "muted small" }, "Or set up a position and play every seat yourself: ", h("a", { href: "#/sandbox", id: "lobby-sandbox" }, "the sandbox"), ".");
    fill(this.createBox, h("h2", {}, "Create a game"), form, sandbox);
  }
}

const NEGOTIATION = [
  [1, 3, 300],
  [2, 3, 300],
  [1, 5, 900],
  [3, 3, 600],
];

/** "2 rounds of 5 min, 3 messages each": the rounds a game was created with. */
export function negotiationLabel(talk) {
  const minutes = talk.seconds % 60 === 0 ? `${talk.seconds / 60} min` : `${talk.seconds} s`;
  return `${talk.rounds} ${talk.rounds === 1 ? "round" : "rounds"} of ${minutes}, ${talk.messages} ${talk.messages === 1 ? "message" : "messages"} each`;
}

function field(label, input, id) {
  return h("div", { class: "field" }, h("label", { for: id }, label), input);
}

/**
 * A form field for one declared game option, in the game's own words (its label, one line of
 * help, each choice's label: the catalogue /api/game-types serves them to every client).
 */
function optionField(opt, inputs) {
  const id = `create-opt-${opt.name}`;
  const helpId = `${id}-help`;
  const label = opt.label || opt.name.replace(/_/g, " ");
  const help = h("p", { class: "muted small option-help", id: helpId }, sentence(opt.help));
  let input;
  if (opt.type === "bool") {
    input = h("input", { type: "checkbox", id, checked: Boolean(opt.default), "aria-describedby": helpId });
    inputs.set(opt.name, () => input.checked);
    return h("div", { class: "field" }, h("label", { class: "inline" }, input, label), help);
  }
  // Fixed choices, or the values a form names for an open option (maps, galaxies).
  const listed = opt.choices || opt.offered;
  const words = opt.choice_labels || {};
  if (listed) {
    input = h("select", { id, "aria-describedby": helpId }, listed.map((c) => h("option", { value: String(c), selected: c === opt.default }, words[String(c)] || String(c))));
    inputs.set(opt.name, () => (opt.type === "int" ? Number(input.value) : input.value));
  } else if (opt.type === "int") {
    input = h("input", { id, type: "number", value: opt.default, min: opt.minimum, max: opt.maximum, step: 1, "aria-describedby": helpId });
    inputs.set(opt.name, () => Number(input.value));
    const range = opt.minimum !== undefined && opt.maximum !== undefined ? ` (${opt.minimum}–${opt.maximum})` : "";
    return h("div", { class: "field" }, h("label", { for: id }, label + range), input, help);
  } else {
    input = h("input", { id, value: opt.default, "aria-describedby": helpId });
    inputs.set(opt.name, () => input.value);
  }
  return h("div", { class: "field" }, h("label", { for: id }, label), input, help);
}

/** Help text as a sentence: a capital first letter and a full stop. */
function sentence(text) {
  const t = String(text || "").trim();
  if (!t) return "";
  return t[0].toUpperCase() + t.slice(1) + (/[.!?)]$/.test(t) ? "" : ".");
}
