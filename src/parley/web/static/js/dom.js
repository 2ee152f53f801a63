// Building the page from data. Text always goes in as text nodes (never parsed as markup),
// so names, messages and notation typed by other players cannot inject anything.

const SVG_NS = "http://www.w3.org/2000/svg";

function applyAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") {
      el.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : value);
    } else if (key === "dataset") {
      for (const [k, v] of Object.entries(value)) el.dataset[k] = String(v);
    } else if (key === "style" && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) el.style.setProperty(k, String(v));
    } else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === "value" && "value" in el) {
      el.value = String(value);
    } else if (key === "checked" || key === "disabled" || key === "selected") {
      el[key] = Boolean(value);
      if (value) el.setAttribute(key, "");
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** An HTML element: h("button", {class: "x", onClick: fn}, "text", otherNode). */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  applyAttrs(el, attrs);
  append(el, children);
  return el;
}

/** An SVG element, same calling convention as h(). */
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  applyAttrs(el, attrs);
  append(el, children);
  return el;
}

/** Replace every child of `el` with `children`. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/**
 * Like fill(), but keeps the current children when the new ones draw the same markup. A
 * frame that changes nothing on a board (a clock, a seat list, a log line) must not swap the
 * nodes under the pointer between a press and its release: the click would be lost. Only for
 * content whose handlers depend on nothing but what the markup shows.
 */
export function refill(el, ...children) {
  const next = document.createElement("div");
  append(next, children);
  const old = el.childNodes;
  const same = next.childNodes.length === old.length && [...next.childNodes].every((n, i) => n.isEqualNode(old[i]));
  if (!same) el.replaceChildren(...next.childNodes);
  return el;
}

export function byId(id) {
  return document.getElementById(id);
}

/** A short message at the bottom of the screen; errors stay longer. */
export function toast(message, kind = "info") {
  const box = byId("toasts");
  if (!box) return;
  const item = h("div", { class: ["toast", `toast-${kind}`], role: kind === "error" ? "alert" : "status" }, message);
  box.append(item);
  setTimeout(() => item.remove(), kind === "error" ? 8000 : 4000);
}

/** "3 min 05 s", "1 h 02 min", "2 d 3 h" for a countdown. */
export function formatDuration(seconds) {
  const t = Math.max(0, Math.floor(seconds));
  const d = Math.floor(t / 86400);
  const hh = Math.floor((t % 86400) / 3600);
  const mm = Math.floor((t % 3600) / 60);
  const ss = t % 60;
  if (d) return `${d} d ${hh} h`;
  if (hh) return `${hh} h ${String(mm).padStart(2, "0")} min`;
  if (mm) return `${mm} min ${String(ss).padStart(2, "0")} s`;
  return `${ss} s`;
}

/** A turn length: "90 s", "15 min", "1 h 30 min", "2 days". */
export function formatPeriod(seconds) {
  const t = Math.round(seconds);
  if (t < 60) return `${t} s`;
  if (t < 3600) return `${Math.round(t / 60)} min`;
  if (t < 86400) {
    const hh = Math.floor(t / 3600);
    const mm = Math.round((t % 3600) / 60);
    return mm ? `${hh} h ${mm} min` : `${hh} h`;
  }
  const d = t / 86400;
  return Number.isInteger(d) ? `${d} day${d === 1 ? "" : "s"}` : `${Math.round(t / 3600)} h`;
}

export function plural(n, word, many = `${word}s`) {
  return `${n} ${n === 1 ? word : many}`;
}

export function titleCase(word) {
  const text = String(word ?? "");
  return text ? text.charAt(0).toUpperCase() + text.slice(1).toLowerCase() : text;
}

/** A modal dialog; resolves with the value passed to close(), or null when dismissed. */
export function dialog(title, build) {
  return new Promise((resolve) => {
    const el = h("dialog", { class: "dialog" });
    const close = (value) => {
      el.close();
      el.remove();
      resolve(value);
    };
    el.addEventListener("cancel", () => close(null));
    el.append(h("h2", {}, title), build(close));
    document.body.append(el);
    el.showModal();
  });
}
