// The last capture (`last_capture`, public, kept until the next one): who played onto which
// pile, the pile's chips (bottom first), who captured it, and once decided the chip killed
// and the chips taken prisoner. Everything is the server's.

import { h, titleCase } from "../dom.js";

/** The box beside the table; `chip(colour, attrs)` draws one chip as the table does. */
export function lastCaptureBox(c, chip) {
  const row = (chips, cls) => h("span", { class: ["sls-capture-chips", cls] }, chips.map((colour) => chip(colour, { dataset: { chip: colour } })));
  return h(
    "section",
    { class: "sls-last-capture", id: "sls-last-capture", "aria-label": "last capture", dataset: { pile: c.pile, capturer: c.capturer } },
    h("div", { class: "sls-capture-title" }, `Last capture: pile ${c.pile}`),
    h("div", {}, `${titleCase(c.played_by)} played on it and ${titleCase(c.capturer)} captured it:`),
    h("div", { class: "sls-capture-row", id: "sls-capture-pile" }, h("span", { class: "small muted" }, "bottom"), row(c.chips, "captured"), h("span", { class: "small muted" }, "top")),
    c.killed
      ? h(
          "div",
          { class: "sls-capture-row", id: "sls-capture-outcome" },
          h("span", {}, "Killed"),
          chip(c.killed, { dataset: { killed: c.killed } }),
          h("span", {}, `and ${titleCase(c.capturer)} took`),
          c.taken.length ? row(c.taken, "taken") : h("span", {}, " nothing"),
        )
      : h("div", { class: "small", id: "sls-capture-outcome" }, `${titleCase(c.capturer)} is to kill one chip of it.`),
  );
}
