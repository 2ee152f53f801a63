// Where things are drawn on a Diplomacy board: the authored geometry of a map
// (static/maps/<name>.json), or, for a map that has none, a schematic ring of the
// provinces this client has heard of. Geometry is drawing data only; it holds no rules.

import { api } from "../api.js";
import { province, readOrder, readUnit } from "./notation.js";

const cache = new Map();

/** The geometry of `mapName`, or a schematic built from what the observation names. */
export async function loadGeometry(mapName, seen) {
  if (!cache.has(mapName)) {
    // The promise is cached, so boards asking at the same moment share one fetch.
    cache.set(
      mapName,
      (async () => {
        const drawn = await api.staticJson(`/static/maps/${encodeURIComponent(mapName)}.json`);
        const info = drawn ? null : await api.mapInfo(mapName);
        return { drawn, info };
      })(),
    );
  }
  const { drawn, info } = await cache.get(mapName);
  if (drawn && drawn.provinces) return { ...drawn, schematic: false };
  return schematic(info, seen);
}

/** Province codes mentioned by an observation, an options tree and results. */
export function provincesSeen(view, optionLeaves) {
  const out = new Set();
  const pos = (view && view.position) || {};
  for (const units of Object.values(pos.units || {})) for (const u of units) addUnit(out, u);
  for (const list of Object.values(pos.dislodged || {})) for (const u of list) addUnit(out, u);
  for (const centres of Object.values(pos.centres || {})) for (const c of centres) out.add(province(c));
  for (const c of pos.contested || []) out.add(province(c));
  const orders = [...(optionLeaves || [])];
  for (const phase of (view && view.last) || []) for (const list of Object.values(phase.results || {})) for (const r of list) orders.push(r.order);
  for (const text of orders) {
    const o = readOrder(text);
    if (!o || !o.loc) continue;
    for (const loc of [o.loc, o.dst, o.army, o.target && o.target.loc]) if (loc) out.add(province(loc));
  }
  return out;
}

function addUnit(set, text) {
  const u = readUnit(text);
  if (u) {
    set.add(province(u.loc));
    if (u.from && u.from !== "NONE") set.add(u.from);
  }
}

function circlePath(x, y, r) {
  return `M ${x - r} ${y} a ${r} ${r} 0 1 0 ${2 * r} 0 a ${r} ${r} 0 1 0 ${-2 * r} 0 Z`;
}

/** A ring of round provinces: every province gets a place, in alphabetical order. */
function schematic(info, seen) {
  const described = info && info.provinces ? info.provinces : null;
  const codes = described ? described.map((p) => p.code) : [...(seen || [])];
  codes.sort();
  const n = Math.max(codes.length, 1);
  const size = 1000;
  const ringR = n <= 1 ? 0 : size * 0.4;
  const r = Math.max(16, Math.min(60, (Math.PI * ringR) / n - 6));
  const provinces = {};
  codes.forEach((code, i) => {
    const angle = -Math.PI / 2 + (2 * Math.PI * i) / n;
    const x = size / 2 + ringR * Math.cos(angle);
    const y = size / 2 + ringR * Math.sin(angle);
    const about = described ? described.find((p) => p.code === code) : null;
    provinces[code] = {
      kind: about ? about.kind : "land",
      name: about ? about.name : undefined,
      path: circlePath(x, y, r),
      label: [x, y + r * 0.55],
      unit: [x, y - r * 0.1],
      centre: about && about.centre ? [x + r * 0.55, y - r * 0.55] : undefined,
      coasts: {},
    };
  });
  return { format: 1, viewBox: [0, 0, size, size], provinces, decor: [], schematic: true };
}
