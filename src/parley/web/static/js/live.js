// The live connection to one game: a WebSocket that resumes from the last entry it saw
// and reconnects by itself, with growing pauses, whenever the connection is lost.

import { ROUTES, session } from "./api.js";

const PING_EVERY_MS = 20000;
const SILENCE_LIMIT_MS = 45000;
const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 15000;

export class LiveGame {
  /**
   * handlers: {message(msg), status(state, detail)} where state is "connecting", "open",
   * "lost" (detail: seconds until the next try) or "refused" (detail: the server's reason).
   */
  constructor(gameId, handlers) {
    this.gameId = gameId;
    this.handlers = handlers;
    this.seq = 0;
    this.ws = null;
    this.stopped = false;
    this.attempt = 0;
    this.retryTimer = null;
    this.pingTimer = null;
    this.lastHeard = 0;
    this.nextId = 1;
    this.pending = new Map();
  }

  start() {
    this.stopped = false;
    // The browser knows first when the network goes: drop the socket at once rather than
    // wait for it to time out, and try again as soon as the network is back.
    this.onOffline = () => this.drop("offline");
    this.onOnline = () => this.retryNow();
    window.addEventListener("offline", this.onOffline);
    window.addEventListener("online", this.onOnline);
    this.connect();
  }

  stop() {
    this.stopped = true;
    window.removeEventListener("offline", this.onOffline);
    window.removeEventListener("online", this.onOnline);
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close(1000, "leaving");
  }

  /** Reconnect now (e.g. the player pressed "retry" or the page became visible). */
  retryNow() {
    if (this.stopped || (this.ws && this.ws.readyState <= 1)) return;
    clearTimeout(this.retryTimer);
    this.connect();
  }

  connect() {
    if (!navigator.onLine) {
      this.scheduleRetry();
      return;
    }
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const url = `${proto}//${location.host}${ROUTES.socket(this.gameId, this.seq)}`;
    this.handlers.status("connecting", this.attempt);
    let ws;
    try {
      ws = new WebSocket(url);
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    let refused = null;
    ws.addEventListener("open", () => {
      ws.send(JSON.stringify({ type: "auth", token: session.token || "" }));
      this.attempt = 0;
      this.lastHeard = Date.now();
      this.handlers.status("open");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.keepAlive(), PING_EVERY_MS);
    });
    ws.addEventListener("message", (event) => {
      if (this.ws !== ws) return;  // a socket given up on
      this.lastHeard = Date.now();
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      if (msg.type === "entries" && typeof msg.seq === "number") this.seq = Math.max(this.seq, msg.seq);
      if (msg.type === "state" && typeof msg.seq === "number" && this.seq === 0) this.seq = msg.seq;
      if ((msg.type === "ack" || msg.type === "error") && msg.id != null && this.pending.has(msg.id)) {
        const { resolve, reject } = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        if (msg.type === "ack") resolve(msg.result);
        else reject(msg);
        return;
      }
      if (msg.type === "error" && msg.id == null) refused = msg;
      this.handlers.message(msg);
    });
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws) return;  // dropped already
      this.ws = null;
      this.lost();
      if (this.stopped) return;
      // 4000 + HTTP status: the server refused this viewer (no such game, not allowed).
      if (event.code >= 4400 && event.code < 4500 && event.code !== 4409 && event.code !== 4429) {
        this.handlers.status("refused", (refused && refused.message) || event.reason || "refused");
        return;
      }
      this.scheduleRetry();
    });
  }

  /** Give up on the current socket now (it may never report its own end). */
  drop(reason) {
    const ws = this.ws;
    if (!ws) return;
    this.ws = null;
    try {
      ws.close(4000, reason);
    } catch {
      // closing a broken socket may throw; it is gone either way
    }
    this.lost();
    if (!this.stopped) this.scheduleRetry();
  }

  lost() {
    clearInterval(this.pingTimer);
    for (const { reject } of this.pending.values()) reject({ error: "offline", message: "the connection was lost" });
    this.pending.clear();
  }

  scheduleRetry() {
    if (this.stopped) return;
    const base = Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** this.attempt);
    const wait = base / 2 + Math.random() * (base / 2);
    this.attempt += 1;
    this.handlers.status("lost", Math.ceil(wait / 1000));
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), wait);
  }

  keepAlive() {
    if (!this.ws || this.ws.readyState !== 1) return;
    if (Date.now() - this.lastHeard > SILENCE_LIMIT_MS) {
      this.drop("silent");  // a half-open connection: drop it and reconnect
      return;
    }
    this.send("ping", {}).catch(() => {});
  }

  /** Send a command over the socket; resolves with the server's ack result. */
  send(type, body) {
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== 1) {
        reject({ error: "offline", message: "not connected" });
        return;
      }
      const id = this.nextId++;
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ id, type, ...body }));
    });
  }

  get connected() {
    return Boolean(this.ws && this.ws.readyState === 1);
  }
}
