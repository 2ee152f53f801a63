// Reading the canonical order notation the server prints (e.g. "A PAR - BUR",
// "F NTH C A LON - NWY", "A MUN S A PAR - BUR", "F STP/SC B", "WAIVE") so an order can be
// drawn as an arrow and matched to a click. This reads text only: whether an order is
// legal, and which orders exist, is always the server's word (the options tree).

const UNIT = "([AF]) ([A-Z0-9]+(?:/[A-Z]+)?)";
const PATTERNS = [
  ["hold", new RegExp(`^${UNIT} H$`)],
  ["move", new RegExp(`^${UNIT} - ([A-Z0-9]+(?:/[A-Z]+)?)( VIA)?$`)],
  ["support", new RegExp(`^${UNIT} S ${UNIT}(?: - ([A-Z0-9]+(?:/[A-Z]+)?))?$`)],
  ["convoy", new RegExp(`^${UNIT} C A ([A-Z0-9]+(?:/[A-Z]+)?) - ([A-Z0-9]+(?:/[A-Z]+)?)$`)],
  ["retreat", new RegExp(`^${UNIT} R ([A-Z0-9]+(?:/[A-Z]+)?)$`)],
  ["disband", new RegExp(`^${UNIT} D$`)],
  ["build", new RegExp(`^${UNIT} B$`)],
];

/** The province part of a location: "STP/SC" → "STP". */
export function province(loc) {
  return loc ? String(loc).split("/")[0] : loc;
}

/** The coast part of a location, or "": "STP/SC" → "SC". */
export function coast(loc) {
  const parts = String(loc || "").split("/");
  return parts.length > 1 ? parts[1] : "";
}

/**
 * A structured reading of one order, or null when the text is not in canonical form.
 * Fields: kind, unit ("A"|"F"), loc, and by kind: dst, via (move), target {unit, loc} and
 * dst (support; dst absent for a support to hold), army and dst (convoy), dst (retreat).
 */
export function readOrder(text) {
  const t = String(text || "").trim().replace(/\s+/g, " ").toUpperCase();
  if (t === "WAIVE") return { kind: "waive", text: t };
  for (const [kind, re] of PATTERNS) {
    const m = re.exec(t);
    if (!m) continue;
    const base = { kind, unit: m[1], loc: m[2], text: t };
    switch (kind) {
      case "move":
        return { ...base, dst: m[3], via: Boolean(m[4]) };
      case "support":
        return { ...base, target: { unit: m[3], loc: m[4] }, dst: m[5] || null };
      case "convoy":
        return { ...base, army: m[3], dst: m[4] };
      case "retreat":
        return { ...base, dst: m[3] };
      default:
        return base;
    }
  }
  return null;
}

/** "A PAR" → {unit: "A", loc: "PAR"}; "F STP/SC <- BOT" → with from "BOT". */
export function readUnit(text) {
  const m = /^([AF]) ([A-Z0-9]+(?:\/[A-Z]+)?)(?: <- ([A-Z0-9]+))?$/.exec(String(text || "").trim().toUpperCase());
  if (!m) return null;
  return { unit: m[1], loc: m[2], from: m[3] || null };
}

/**
 * Provinces a click may pick next for an order being built, given the leaves of the
 * selected unit and the clicks so far. Each leaf's click path is the provinces a player
 * points at after the unit: move/retreat [dst]; support [target, dst or target again];
 * convoy [army, dst]. The kinds of leaf considered are chosen by `mode`.
 */
export function clickPath(order) {
  switch (order.kind) {
    case "move":
    case "retreat":
      return [province(order.dst)];
    case "support":
      return [province(order.target.loc), province(order.dst || order.target.loc)];
    case "convoy":
      return [province(order.army), province(order.dst)];
    default:
      return [];
  }
}

/** The order kinds each ordering mode offers. */
export const MODE_KINDS = {
  move: ["move", "retreat"],
  support: ["support"],
  convoy: ["convoy"],
};

/** Leaves (already read) of `mode` whose click path starts with `clicks`. */
export function candidates(readLeaves, mode, clicks) {
  const kinds = MODE_KINDS[mode] || [];
  return readLeaves.filter((o) => {
    if (!kinds.includes(o.kind)) return false;
    const path = clickPath(o);
    return clicks.every((c, i) => path[i] === c);
  });
}

/** The distinct provinces that would be the next click for `candidates`. */
export function nextTargets(cands, clicks) {
  const out = new Set();
  for (const o of cands) {
    const path = clickPath(o);
    if (path.length > clicks.length) out.add(path[clicks.length]);
  }
  return out;
}
