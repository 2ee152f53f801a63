// The server's HTTP API, in one place: every route the client calls is listed in ROUTES,
// so following a change of the server is a one-line edit here.

const TOKEN_KEY = "parley.token";
const USER_KEY = "parley.user";

const enc = encodeURIComponent;

export const ROUTES = {
  signUp: () => ["POST", "/api/users"],
  logIn: () => ["POST", "/api/sessions"],
  logOut: () => ["DELETE", "/api/sessions/current"],
  me: () => ["GET", "/api/me"],
  // Notices by e-mail or webhook: for every game (no id) or for one game.
  notifyPrefs: (id) => ["GET", id ? `/api/games/${enc(id)}/notifications` : "/api/me/notifications"],
  saveNotifyPrefs: (id) => ["PUT", id ? `/api/games/${enc(id)}/notifications` : "/api/me/notifications"],
  // Keeping a name: a password attached later, a one-time recovery code, signing in with it.
  setPassword: () => ["PUT", "/api/me/password"],
  recoveryCode: () => ["POST", "/api/me/recovery-code"],
  recover: () => ["POST", "/api/sessions/recover"],
  myGames: () => ["GET", "/api/me/games"],
  gameTypes: () => ["GET", "/api/game-types"],
  games: (query) => ["GET", `/api/games${query ? `?${query}` : ""}`],
  create: () => ["POST", "/api/games"],
  game: (id) => ["GET", `/api/games/${enc(id)}`],
  join: (id) => ["POST", `/api/games/${enc(id)}/join`],
  leave: (id) => ["POST", `/api/games/${enc(id)}/leave`],
  bots: (id) => ["POST", `/api/games/${enc(id)}/bots`],
  start: (id) => ["POST", `/api/games/${enc(id)}/start`],
  close: (id) => ["POST", `/api/games/${enc(id)}/close`],
  back: (id) => ["POST", `/api/games/${enc(id)}/back`],
  seatToBot: (id, seat) => ["POST", `/api/games/${enc(id)}/seats/${enc(seat)}/bot`],
  events: (id) => ["GET", `/api/games/${enc(id)}/events`],
  state: (id) => ["GET", `/api/games/${enc(id)}/state?options=true`],
  options: (id) => ["GET", `/api/games/${enc(id)}/options`],
  act: (id) => ["POST", `/api/games/${enc(id)}/actions`],
  // The seat's saved parts for the current step and its ready flag (saved orders).
  draft: (id) => ["GET", `/api/games/${enc(id)}/draft`],
  saveDraft: (id) => ["POST", `/api/games/${enc(id)}/draft`],
  // Standing answers the server gives for the seat at once (Illuminati's standing pass).
  standing: (id) => ["GET", `/api/games/${enc(id)}/standing`],
  saveStanding: (id) => ["POST", `/api/games/${enc(id)}/standing`],
  // Take back the seat's last action, while the state says `can_undo`.
  undo: (id) => ["POST", `/api/games/${enc(id)}/undo`],
  history: (id, since) => ["GET", `/api/games/${enc(id)}/history?since=${enc(since)}&limit=10000`],
  press: (id) => ["POST", `/api/games/${enc(id)}/press`],
  // The waiting room's table chat before the start (members only).
  waitingRoom: (id) => ["GET", `/api/games/${enc(id)}/waiting-room`],
  sayInWaitingRoom: (id) => ["POST", `/api/games/${enc(id)}/waiting-room`],
  draw: (id) => ["POST", `/api/games/${enc(id)}/draw`],
  record: (id) => ["GET", `/api/games/${enc(id)}/record`],
  // The viewer's observation as it was after the first `seq` entries (earlier phases).
  stateAt: (id, seq) => ["GET", `/api/games/${enc(id)}/state?at=${enc(seq)}`],
  // Where each step (phase) of the game begins: [{state_id, seq}].
  steps: (id) => ["GET", `/api/games/${enc(id)}/steps`],
  // Sandboxes: one user plays every seat of a position; a moment of a game as a position.
  sandbox: () => ["POST", "/api/sandbox"],
  sandboxSeat: (id) => ["POST", `/api/sandbox/${enc(id)}/seat`],
  position: (id, seq) => ["GET", `/api/games/${enc(id)}/position${seq === undefined || seq === null ? "" : `?at=${enc(seq)}`}`],
  // Province names and kinds of a Diplomacy map (for maps without drawn geometry). Not
  // served yet: the client then draws a schematic from the provinces it has seen.
  mapInfo: null,
  // The token goes in the socket's first message, never in its address (addresses are logged).
  socket: (id, since) => `/ws/games/${enc(id)}?since=${enc(since)}&options=true`,
};

/** The signed-in user and their bearer token, kept in this browser's local storage. */
export const session = {
  get token() {
    return localStorage.getItem(TOKEN_KEY);
  },
  get user() {
    try {
      return JSON.parse(localStorage.getItem(USER_KEY) || "null");
    } catch {
      return null;
    }
  },
  save(out) {
    localStorage.setItem(TOKEN_KEY, out.token);
    localStorage.setItem(USER_KEY, JSON.stringify(out.user));
  },
  clear() {
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(USER_KEY);
  },
};

/** An error answer of the server: `code` is its machine-readable tag, `message` for people. */
export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.message ? body.message : `the server answered ${status}`);
    this.status = status;
    this.code = (body && body.error) || "http_error";
    this.body = body || {};
  }
}

async function call(route, body) {
  const [method, path] = route;
  const headers = { Accept: "application/json" };
  const token = session.token;
  if (token) headers.Authorization = `Bearer ${token}`;
  const init = { method, headers };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ApiError(0, { error: "offline", message: "cannot reach the server; check the connection" });
  }
  let data = null;
  const text = await res.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = { error: "bad_answer", message: text.slice(0, 200) };
    }
  }
  if (!res.ok) {
    if (res.status === 401 && token) session.clear();
    throw new ApiError(res.status, data);
  }
  return data;
}

export const api = {
  signUp: (username, password) => call(ROUTES.signUp(), password ? { username, password } : { username }),
  logIn: (username, password) => call(ROUTES.logIn(), { username, password }),
  logOut: () => call(ROUTES.logOut()),
  me: () => call(ROUTES.me()),
  notifyPrefs: (id) => call(ROUTES.notifyPrefs(id)),
  saveNotifyPrefs: (id, prefs) => call(ROUTES.saveNotifyPrefs(id), prefs),
  setPassword: (password, current) => call(ROUTES.setPassword(), current ? { password, current_password: current } : { password }),
  recoveryCode: () => call(ROUTES.recoveryCode()),
  recover: (username, code) => call(ROUTES.recover(), { username, code }),
  myGames: () => call(ROUTES.myGames()),
  gameTypes: () => call(ROUTES.gameTypes()),
  openGames: () => call(ROUTES.games("status=lobby&status=active&limit=100")),
  create: (req) => call(ROUTES.create(), req),
  game: (id) => call(ROUTES.game(id)),
  join: (id, role, inviteCode) => call(ROUTES.join(id), inviteCode ? { role, invite_code: inviteCode } : { role }),
  leave: (id) => call(ROUTES.leave(id)),
  addBots: (id, bot, count) => call(ROUTES.bots(id), { bot, count }),
  start: (id, fillWith) => call(ROUTES.start(id), fillWith ? { fill_with: fillWith } : {}),
  close: (id) => call(ROUTES.close(id)),
  back: (id) => call(ROUTES.back(id)),
  seatToBot: (id, seat, bot) => call(ROUTES.seatToBot(id, seat), { bot }),
  state: (id) => call(ROUTES.state(id)),
  history: (id, since = 0) => call(ROUTES.history(id, since)),
  act: (id, req) => call(ROUTES.act(id), req),
  draft: (id) => call(ROUTES.draft(id)),
  saveDraft: (id, req) => call(ROUTES.saveDraft(id), req),
  standing: (id) => call(ROUTES.standing(id)),
  saveStanding: (id, name, on) => call(ROUTES.saveStanding(id), { name, on }),
  undo: (id) => call(ROUTES.undo(id)),
  press: (id, req) => call(ROUTES.press(id), req),
  waitingRoom: (id) => call(ROUTES.waitingRoom(id)),
  sayInWaitingRoom: (id, text) => call(ROUTES.sayInWaitingRoom(id), { text }),
  draw: (id, accept) => call(ROUTES.draw(id), { accept }),
  stateAt: (id, seq) => (ROUTES.stateAt ? call(ROUTES.stateAt(id, seq)) : Promise.resolve(null)),
  steps: (id) => (ROUTES.steps ? call(ROUTES.steps(id)) : Promise.resolve(null)),
  sandbox: (game, position, name) => call(ROUTES.sandbox(), name ? { game, position, name } : { game, position }),
  sandboxSeat: (id, seat) => call(ROUTES.sandboxSeat(id), { seat }),
  position: (id, seq) => call(ROUTES.position(id, seq)),
  mapInfo: (name) => (ROUTES.mapInfo ? call(ROUTES.mapInfo(name)).catch(() => null) : Promise.resolve(null)),
  /** A static file of the client (e.g. map geometry); null when it is not there. */
  staticJson: async (path) => {
    try {
      const res = await fetch(path, { headers: { Accept: "application/json" } });
      return res.ok ? await res.json() : null;
    } catch {
      return null;
    }
  },
};
