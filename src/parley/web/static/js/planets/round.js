// The fuller round on the Planet Control board (observations with `rules: "full"`): the
// eight strategy cards with their holders, the speaker and the initiative order, the card
// being resolved, and the forms for owed choices the options tree offers in many leaves
// (command tokens, production). Nothing here knows a rule: the cards' texts, holders and
// trade goods are the server's, and every button sends a leaf of the options tree.

import { h, titleCase } from "../dom.js";
import { leaves } from "../options.js";

/** The leaves of one group of the tree (its key, e.g. "pick"), or none. */
export function groupLeaves(tree, key) {
  const group = ((tree && tree.children) || []).find((g) => g.key === key);
  return group ? leaves(group) : [];
}

/** The card a round leaf names ("pick command", "follow accord", "strategy survey"). */
function cardOf(cards, action) {
  const name = action.split(" ").slice(1).join(" ");
  return cards.find((c) => c.name === name) || null;
}

/**
 * The strategy panel: speaker, initiative, the card being resolved, and the eight cards.
 * A card the player may pick now is a button sending its `pick` leaf.
 */
export function strategyPanel(v, tree, { act, colourOf, paint, texts = true, toggle = null }) {
  const cards = v.strategy_cards || [];
  const picks = new Map(groupLeaves(tree, "pick").map((l) => [l.action, l]));
  const name = (seat) => (seat === v.you ? "You" : titleCase(colourOf(seat)));
  const swatch = (seat) => h("span", { class: "swatch", style: { background: paint(colourOf(seat)) } });
  const order = v.initiative || [];
  const resolving = v.strategic;
  const custodians = v.custodians || {};
  // While cards are picked their texts always show; later a player may fold them away.
  const showTexts = texts || picks.size > 0 || v.stage === "strategy";
  const facts = [
    h("span", { class: "pc-fact", id: "pc-speaker", dataset: { seat: v.speaker } }, "Speaker: ", swatch(v.speaker), name(v.speaker)),
    h(
      "span",
      { class: "pc-fact", id: "pc-initiative", dataset: { order: order.join(" ") } },
      "Initiative: ",
      order.length ? order.map((seat, i) => [i ? " → " : "", swatch(seat), name(seat)]) : "set when every card is picked",
    ),
    h(
      "span",
      { class: "pc-fact", id: "pc-custodians", dataset: { on: String(Boolean(custodians.on)), removedBy: custodians.removed_by ?? "" } },
      custodians.on ? "Custodians hold the central planet" : custodians.removed_by !== null && custodians.removed_by !== undefined ? ["Custodians removed by ", swatch(custodians.removed_by), name(custodians.removed_by)] : "No custodians",
    ),
  ];
  const card = (c) => {
    const pick = picks.get(`pick ${c.name}`);
    const holder = c.holder === null || c.holder === undefined ? null : c.holder;
    const state = holder === null ? "not taken" : `${name(holder)}${c.used ? " · used" : " · not used yet"}`;
    const body = [
      h("span", { class: "pc-scard-head" }, h("span", { class: "pc-scard-no" }, String(c.number)), h("span", { class: "pc-scard-name" }, titleCase(c.name))),
      h("span", { class: "pc-scard-holder" }, holder === null ? null : swatch(holder), state, c.trade_goods ? h("span", { class: "pc-scard-goods" }, ` · ${c.trade_goods} trade good${c.trade_goods === 1 ? "" : "s"} on it`) : null),
      showTexts ? h("span", { class: "pc-scard-text" }, h("strong", {}, "Primary: "), c.primary) : null,
      showTexts ? h("span", { class: "pc-scard-text" }, h("strong", {}, "Secondary: "), c.secondary) : null,
    ];
    const attrs = {
      class: ["pc-scard", pick && "pickable", holder !== null && "held", c.used && "used", resolving && resolving.card === c.number && "resolving"],
      dataset: { card: c.number, name: c.name, holder: holder ?? "", used: String(c.used), goods: c.trade_goods },
      style: holder === null ? null : { "--holder": paint(colourOf(holder)) },
    };
    return pick
      ? h("button", { ...attrs, type: "button", dataset: { ...attrs.dataset, action: pick.action }, onClick: () => act(pick.action) }, body)
      : h("div", attrs, body);
  };
  return h(
    "section",
    { class: "pc-strategy", id: "pc-strategy", "aria-label": "strategy cards" },
    h(
      "div",
      { class: "pc-strategy-head" },
      h("h3", {}, "Strategy cards"),
      toggle && !(picks.size > 0 || v.stage === "strategy")
        ? h("button", { type: "button", class: "small", id: "pc-card-texts", "aria-pressed": String(texts), onClick: toggle }, texts ? "Hide the cards' texts" : "Show the cards' texts")
        : null,
    ),
    h("div", { class: "pc-facts" }, facts),
    resolving
      ? h("p", { class: "pc-resolving", id: "pc-resolving", dataset: { card: resolving.card } }, `Resolving ${titleCase(resolving.name)}, ${name(resolving.holder)}'s card`, v.expected ? `: ${v.expected}` : "")
      : null,
    picks.size ? h("p", { class: "small pc-pick-hint" }, "Click a card to take it (with any trade goods on it).") : null,
    h("div", { class: "pc-scards" }, cards.map(card)),
  );
}

/** A player's command sheet and held cards, for their panel. */
export function sheetLine(v, seat) {
  const sheet = (v.command_sheets || []).find((x) => x.seat === seat);
  if (!sheet) return null;
  const held = (v.strategy_cards || []).filter((c) => c.holder === seat);
  return [
    h(
      "div",
      { class: "pc-sheet small", dataset: { tactic: sheet.tactic, fleet: sheet.fleet, strategy: sheet.strategy, reinforcements: sheet.reinforcements } },
      h("span", { class: "pc-pool" }, h("strong", {}, String(sheet.tactic)), " tactic"),
      h("span", { class: "pc-pool" }, h("strong", {}, String(sheet.fleet)), " fleet"),
      h("span", { class: "pc-pool" }, h("strong", {}, String(sheet.strategy)), " strategy"),
      h("span", { class: "muted" }, `${sheet.reinforcements} in reinforcements · ${sheet.on_board} on the board`),
    ),
    held.length
      ? h("div", { class: "small pc-held" }, "Cards: ", held.map((c, i) => [i ? ", " : "", h("span", { class: c.used ? "used" : null }, `${c.number} ${titleCase(c.name)}${c.used ? " (used)" : ""}`)]))
      : null,
  ];
}

/** Buttons for a strategic action or a secondary: each names its card and that ability. */
export function abilityButtons(v, leavesOf, act) {
  const cards = v.strategy_cards || [];
  return leavesOf.map((l) => {
    const verb = l.action.split(" ")[0];
    const c = cardOf(cards, l.action);
    const title = verb === "strategy" ? `Strategic action: ${titleCase(c ? c.name : "")}` : verb === "follow" ? `Follow ${titleCase(c ? c.name : "")}` : "Decline";
    const text = verb === "strategy" ? c && c.primary : verb === "follow" ? c && c.secondary : "Let this secondary ability pass.";
    return h(
      "button",
      { type: "button", class: ["pc-ability", verb === "decline" ? "quiet" : "primary"], dataset: { action: l.action }, onClick: () => act(l.action) },
      h("strong", {}, title),
      text ? h("span", { class: "pc-ability-text" }, text) : null,
    );
  });
}

const POOLS = ["tactic", "fleet", "strategy"];

/**
 * Placing command tokens: few offered splits are buttons; many are a form of three counts
 * whose sum is the offered one, sending the leaf with exactly those counts.
 */
export function tokensForm(leafList, act, state) {
  const splits = leafList.map((l) => ({ leaf: l, c: l.action.split(" ").slice(1).map(Number) }));
  const words = (c) => c.map((n, i) => `${n} ${POOLS[i]}`).join(" · ");
  if (splits.length <= 6) {
    return h("div", { class: "pc-buttons" }, splits.map(({ leaf, c }) => h("button", { type: "button", class: "option", dataset: { action: leaf.action }, onClick: () => act(leaf.action) }, words(c))));
  }
  const total = splits[0].c.reduce((a, b) => a + b, 0);
  const low = POOLS.map((_, i) => Math.min(...splits.map((x) => x.c[i])));
  const high = POOLS.map((_, i) => Math.max(...splits.map((x) => x.c[i])));
  const pick = state.tokens && state.tokens.total === total ? state.tokens.c : splits[0].c;
  const inputs = POOLS.map((pool, i) =>
    h("input", { type: "number", id: `pc-tokens-${pool}`, min: low[i], max: high[i], value: pick[i], inputmode: "numeric" }),
  );
  const go = h("button", { type: "submit", class: "primary", id: "pc-tokens-go" }, "Place tokens");
  const note = h("p", { class: "small", id: "pc-tokens-note", role: "status" });
  const current = () => inputs.map((el) => Number(el.value));
  const found = () => {
    const c = current();
    return splits.find((x) => x.c.every((n, i) => n === c[i])) || null;
  };
  const check = () => {
    const c = current();
    state.tokens = { total, c };
    const sum = c.reduce((a, b) => a + (Number.isFinite(b) ? b : 0), 0);
    const match = found();
    go.disabled = !match;
    go.dataset.action = match ? match.leaf.action : "";
    note.textContent = match ? `${sum} of ${total} placed.` : sum !== total ? `The three counts must add up to ${total} (now ${sum}).` : "That split is not offered: each pool has at least its low count.";
  };
  inputs.forEach((el) => el.addEventListener("input", check));
  check();
  return h(
    "form",
    {
      class: "pc-tokens",
      id: "pc-tokens",
      dataset: { total },
      onSubmit: (e) => {
        e.preventDefault();
        const match = found();
        if (match) act(match.leaf.action);
      },
    },
    h("p", { class: "small" }, `Share ${total} command tokens among your pools:`),
    h("div", { class: "pc-token-inputs" }, POOLS.map((pool, i) => h("label", { class: "pc-count", for: `pc-tokens-${pool}` }, `${titleCase(pool)} (${low[i]}–${high[i]})`, inputs[i]))),
    note,
    go,
  );
}

const PRODUCE = /^produce (\d+) (.+) at (.+)$/;

/**
 * Production: the unit and the dock's planet in one list, the count in another, and the
 * button sending the offered leaf with exactly those.
 */
export function produceForm(leafList, act, state) {
  const offers = new Map();
  for (const leaf of leafList) {
    const m = PRODUCE.exec(leaf.action);
    if (!m) continue;
    const what = `${m[2]} at ${m[3]}`;
    if (!offers.has(what)) offers.set(what, []);
    offers.get(what).push({ n: Number(m[1]), leaf });
  }
  if (!offers.size) return null;
  const kinds = [...offers.keys()];
  const what = offers.has(state.what) ? state.what : kinds[0];
  const counts = offers.get(what).sort((a, b) => a.n - b.n);
  const chosen = counts.find((x) => x.n === state.count) || counts[0];
  const redraw = state.redraw;
  return h(
    "div",
    { class: "pc-produce", id: "pc-produce" },
    h(
      "label",
      { class: "pc-count", for: "pc-produce-kind" },
      "Unit",
      h("select", { id: "pc-produce-kind", onChange: (e) => { state.what = e.target.value; state.count = 1; redraw(); } }, kinds.map((k) => h("option", { value: k, selected: k === what }, k))),
    ),
    h(
      "label",
      { class: "pc-count", for: "pc-produce-count" },
      "How many",
      h("select", { id: "pc-produce-count", onChange: (e) => { state.what = what; state.count = Number(e.target.value); redraw(); } }, counts.map((x) => h("option", { value: x.n, selected: x === chosen }, String(x.n)))),
    ),
    h("button", { type: "button", class: "primary", id: "pc-produce-go", dataset: { action: chosen.leaf.action }, onClick: () => act(chosen.leaf.action) }, `Produce ${chosen.n} ${what}`),
  );
}
