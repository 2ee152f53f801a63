// Our own card design, drawn from the card facts the server sends: name, power/transferable,
// resistance, income, alignments and the ability in a line. No scanned art.

import { h } from "../dom.js";

const ALIGN_SHORT = {
  Government: "Gov",
  Communist: "Com",
  Liberal: "Lib",
  Conservative: "Con",
  Peaceful: "Pea",
  Violent: "Vio",
  Straight: "Str",
  Weird: "Wei",
  Criminal: "Cri",
  Fanatic: "Fan",
};

export function alignShort(name) {
  return ALIGN_SHORT[name] || String(name).slice(0, 3);
}

/** Power/transferable, resistance and income, each as a short piece: "P 6/3", "R 5", "I 2". */
export function statParts(c) {
  const parts = [`P ${c.power}/${c.transferable}`];
  if (c.resistance !== undefined && c.resistance !== null) parts.push(`R ${c.resistance}`);
  parts.push(`I ${c.income}`);
  return parts;
}

/** The stats of a card as one short line: "P 6/3 · R 5 · I 2". */
export function statLine(c) {
  return statParts(c).join(" · ");
}

function describe(c) {
  const lines = [c.name, statLine(c)];
  if (c.alignments && c.alignments.length) lines.push(c.alignments.join(", "));
  if (c.ability) lines.push(c.ability);
  if (c.treasury !== undefined) lines.push(`Treasury: ${c.treasury} MB`);
  return lines.join("\n");
}

/** A face-up Illuminati or group card. `opts.treasury` shows money on it. */
export function cardFace(c, opts = {}) {
  const kind = c.kind || "group";
  return h(
    opts.tag || "div",
    {
      class: ["il-card", `il-${kind}`, opts.orientation && `il-${opts.orientation}`, opts.class].flat(3),
      dataset: { card: c.name },
      title: describe(c),
      type: opts.tag === "button" ? "button" : undefined,
      style: opts.style,
      onClick: opts.onClick,
    },
    // The name comes from what the card shows (a different label would not match it for
    // speech input); the action a button takes is added for screen readers only.
    h("span", { class: "il-name" }, c.name),
    h("span", { class: "il-stats", title: statLine(c) }, statParts(c).map((part) => h("span", { class: "il-stat" }, part))),
    c.alignments && c.alignments.length ? h("span", { class: "il-aligns" }, c.alignments.map((a) => h("span", { class: ["il-align", `al-${a.toLowerCase()}`] }, alignShort(a)))) : null,
    c.ability ? h("span", { class: "il-ability" }, c.ability) : null,
    c.goal ? h("span", { class: "il-card-goal" }, h("strong", {}, "Goal: "), c.goal) : null,
    c.treasury !== undefined && c.treasury !== null ? h("span", { class: "il-money", dataset: { money: c.treasury } }, `${c.treasury} MB`) : null,
    opts.label ? h("span", { class: "sr-only" }, opts.label) : null,
  );
}

/** A special card in a hand: its name when known, a back otherwise. */
export function specialCard(entry, opts = {}) {
  if (!entry.card) {
    return h("div", { class: ["il-special", "il-back", opts.class], title: "a special card, face down", "aria-label": "face-down special card" }, h("span", { class: "il-back-mark" }, "◈"));
  }
  // A card just drawn is not face down yet: its holder is still choosing how to keep it.
  const undecided = entry.decided === false;
  const side = undecided ? "not placed yet: keep it face up or face down" : entry.face_up ? "face up" : "face down: only you see it";
  return h(
    "div",
    {
      class: ["il-special", entry.face_up ? "il-up" : "il-down", undecided && "il-undecided", opts.class],
      dataset: { special: entry.card },
      title: [entry.card, entry.text || "", side].filter(Boolean).join("\n"),
    },
    h("span", { class: "il-name" }, entry.card),
    entry.face_up ? null : h("span", { class: "il-down-mark" }, undecided ? "up or down?" : "face down"),
    opts.extra || null,
  );
}
