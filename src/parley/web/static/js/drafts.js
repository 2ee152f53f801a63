// Saved orders: a seat's parts go to the server as they are entered, so they count at the
// deadline even if this page is closed; a separate ready flag says the player is done.
// The server keeps one part per group of the options tree (its `each` children, or the
// root for a single choice); this module only mirrors what the page shows.

export class SavedOrders {
  /** `ctx` is the game page's context; `onChange` redraws after the server answered. */
  constructor(ctx, onChange) {
    this.ctx = ctx;
    this.onChange = onChange;
    this.stateId = null;
    this.server = new Map();  // slot → action, as the server has it
    this.ready = false;
    this.loaded = false;
    this.error = null;
    this.queue = Promise.resolve();
  }

  /** Whether the page can save to a server (a mounted board without one falls back). */
  get enabled() {
    return Boolean(this.ctx.saveDraft && this.ctx.loadDraft);
  }

  /** On a new step: what the server saved for it (a Map), or null if nothing could be read. */
  async load(stateId) {
    if (!this.enabled || stateId === this.stateId) return null;
    this.stateId = stateId;
    this.server = new Map();
    this.ready = false;
    this.loaded = false;
    this.error = null;  // a refusal in the step before means nothing now
    try {
      const out = await this.ctx.loadDraft();
      if (this.stateId !== stateId || out.state_id !== stateId) return null;
      this.take(out);
      return this.server;
    } catch {
      return null;
    }
  }

  take(out) {
    this.server = new Map(out.parts.filter((p) => p.action).map((p) => [p.slot, p.action]));
    this.ready = Boolean(out.ready);
    this.loaded = true;
  }

  /**
   * Send the server what differs from `wanted()` (slot → action), and `ready` if given.
   * Saves run one after the other; each sends the page's latest parts.
   */
  save(wanted, ready) {
    const run = async () => {
      const now = wanted();
      const parts = {};
      for (const [slot, action] of now) if (this.server.get(slot) !== action) parts[slot] = action;
      for (const slot of this.server.keys()) if (!now.has(slot)) parts[slot] = null;
      if (!Object.keys(parts).length && ready === undefined) return;
      const body = { parts, state_id: this.stateId };
      if (ready !== undefined) body.ready = ready;
      const out = await this.ctx.saveDraft(body);
      if (out.state_id === this.stateId) this.take(out);
      this.error = null;
    };
    this.queue = this.queue
      .then(run)
      .catch((err) => {
        this.error = (err && err.message) || String(err);
      })
      .then(() => this.onChange && this.onChange());
    return this.queue;
  }
}
