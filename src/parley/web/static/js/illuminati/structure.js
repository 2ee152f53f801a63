// One player's power structure on its grid: every card where the server placed it (grid
// squares, orientation), an arrow on each outward side (filled when a card hangs on it),
// and free arrows that become buttons when the current choice needs a place.

import { h } from "../dom.js";
import { cardFace } from "./cards.js";

/** Centre of a card's side pointing `dir`, in grid units. */
function sidePoint(c, dir) {
  if (dir === "north") return [c.x + c.w / 2, c.y];
  if (dir === "south") return [c.x + c.w / 2, c.y + c.h];
  if (dir === "west") return [c.x, c.y + c.h / 2];
  return [c.x + c.w, c.y + c.h / 2];
}

/**
 * Draw a structure. `look` answers, per card name, extra classes and a click handler;
 * `spots` maps "host|direction" to a handler for free arrows that can be chosen.
 */
export function drawStructure(structure, cell, look, spots) {
  const b = structure.bounds;
  if (!b) return h("div", { class: "il-grid il-empty" }, "no card yet");
  const pad = 0.6;
  const px = (v) => `${v * cell}px`;
  const box = h("div", {
    class: "il-grid",
    dataset: { seat: structure.seat },
    style: { width: px(b.w + 2 * pad), height: px(b.h + 2 * pad), "--cell": `${cell}px` },
  });
  const ox = -b.x + pad;
  const oy = -b.y + pad;
  for (const c of structure.cards) {
    const l = look(c) || {};
    const face = cardFace(c, {
      tag: l.onClick ? "button" : "div",
      orientation: c.orientation,
      class: ["il-placed", l.class],
      onClick: l.onClick,
      style: { left: px(c.x + ox), top: px(c.y + oy), width: px(c.w), height: px(c.h) },
      label: l.label,
    });
    face.dataset.master = c.master || "";
    if (l.onDragStart) {
      face.draggable = true;
      face.addEventListener("dragstart", (event) => l.onDragStart(event));
      face.addEventListener("dragend", () => l.onDragEnd && l.onDragEnd());
    }
    box.append(face);
    for (const arrow of c.out_arrows || []) {
      const [ax, ay] = sidePoint(c, arrow.direction);
      const key = `${c.name}|${arrow.direction}`;
      const pick = spots && spots.get(key);
      const attrs = {
        class: ["il-arrow", `dir-${arrow.direction}`, arrow.to ? "linked" : "free", pick && "target"],
        style: { left: px(ax + ox), top: px(ay + oy) },
        dataset: { host: c.name, direction: arrow.direction },
        title: arrow.to ? `${c.name} → ${arrow.to}` : `free arrow of ${c.name}, ${arrow.direction}`,
      };
      if (pick) box.append(h("button", { ...attrs, type: "button", "aria-label": `${c.name} ${arrow.direction}`, onClick: pick }));
      else box.append(h("span", attrs));
    }
  }
  return box;
}
