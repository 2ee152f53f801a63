// Zoom and pan for a drawn board. The board starts fitted to its box, so the whole map is in
// view on any screen; "+" and "−" scale it, and the box then scrolls to pan (a swipe on a
// phone, a drag with the mouse, the arrow keys once the box has focus).

import { h } from "./dom.js";

const LEVELS = [1, 1.5, 2, 3];
const DRAG = 6; // pixels a press must move before it pans instead of clicking

export class Zoom {
  /** `box` holds the board's <svg> (redrawn freely); `name` is what the board is called. */
  constructor(box, name) {
    this.box = box;
    this.level = 0;
    box.classList.add("zoom-box");
    // A box that can scroll must be reachable by keyboard (and named for screen readers).
    box.tabIndex = 0;
    box.setAttribute("role", "region");
    box.setAttribute("aria-label", `${name}: zoom with the buttons, scroll to pan`);
    this.shown = h("span", { class: "zoom-level", "aria-live": "polite" }, "100%");
    const button = (label, text, step, id) =>
      h("button", { type: "button", class: "small", id, "aria-label": label, title: label, onClick: () => this.set(step) }, text);
    this.bar = h(
      "div",
      { class: "zoom-bar" },
      button("zoom out", "−", -1, `${box.id || "board"}-zoom-out`),
      this.shown,
      button("zoom in", "+", 1, `${box.id || "board"}-zoom-in`),
      h("button", { type: "button", class: "small", id: `${box.id || "board"}-zoom-fit`, onClick: () => this.set(null) }, "Fit"),
    );
    this.dragging(box);
    this.apply();
  }

  set(step) {
    const before = LEVELS[this.level];
    this.level = step === null ? 0 : Math.min(LEVELS.length - 1, Math.max(0, this.level + step));
    const after = LEVELS[this.level];
    // Keep the middle of what was in view in the middle.
    const box = this.box;
    const cx = (box.scrollLeft + box.clientWidth / 2) / before;
    const cy = (box.scrollTop + box.clientHeight / 2) / before;
    this.apply();
    box.scrollLeft = cx * after - box.clientWidth / 2;
    box.scrollTop = cy * after - box.clientHeight / 2;
  }

  apply() {
    const z = LEVELS[this.level];
    this.box.style.setProperty("--zoom", String(z));
    this.box.toggleAttribute("data-zoomed", z > 1);
    this.shown.textContent = `${Math.round(z * 100)}%`;
  }

  dragging(box) {
    let start = null;
    let moved = false;
    box.addEventListener("pointerdown", (e) => {
      if (e.pointerType !== "mouse" || e.button !== 0 || !box.hasAttribute("data-zoomed")) return;
      start = { x: e.clientX, y: e.clientY, left: box.scrollLeft, top: box.scrollTop };
      moved = false;
    });
    box.addEventListener("pointermove", (e) => {
      if (!start) return;
      const dx = e.clientX - start.x;
      const dy = e.clientY - start.y;
      if (!moved && Math.hypot(dx, dy) < DRAG) return;
      moved = true;
      box.scrollLeft = start.left - dx;
      box.scrollTop = start.top - dy;
    });
    const end = () => (start = null);
    box.addEventListener("pointerup", end);
    box.addEventListener("pointerleave", end);
    // A press that panned is not also a click on what lay under it.
    box.addEventListener("click", (e) => {
      if (moved) {
        e.stopPropagation();
        e.preventDefault();
        moved = false;
      }
    }, true);
  }
}
