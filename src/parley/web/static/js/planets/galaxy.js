// Hex geometry of our own: flat-topped hexes placed from the axial coordinates (q, r) the
// server sends with each system. Pure geometry: no rules.

export const SIZE = 60; // centre to corner
const ROOT3 = Math.sqrt(3);

/** The centre of the hex at axial (q, r). */
export function centre(q, r) {
  return { x: SIZE * 1.5 * q, y: SIZE * ROOT3 * (r + q / 2) };
}

/** The six corners of a hex around (x, y), as an SVG points string. */
export function corners(x, y, size = SIZE) {
  const out = [];
  for (let i = 0; i < 6; i += 1) {
    const angle = (Math.PI / 3) * i;
    out.push(`${(x + size * Math.cos(angle)).toFixed(1)},${(y + size * Math.sin(angle)).toFixed(1)}`);
  }
  return out.join(" ");
}

/** The SVG viewBox that holds every system, with a margin. */
export function viewBox(systems) {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const sys of systems) {
    const { x, y } = centre(sys.q, sys.r);
    minX = Math.min(minX, x - SIZE);
    maxX = Math.max(maxX, x + SIZE);
    minY = Math.min(minY, y - SIZE);
    maxY = Math.max(maxY, y + SIZE);
  }
  const pad = 6;
  return `${(minX - pad).toFixed(1)} ${(minY - pad).toFixed(1)} ${(maxX - minX + 2 * pad).toFixed(1)} ${(maxY - minY + 2 * pad).toFixed(1)}`;
}

/** Where the k-th of n planets sits inside its hex. */
export function planetSpot(x, y, k, n) {
  if (n === 1) return { x, y: y + 6 };
  // Two planets sit a little higher and closer, so their labels stay inside the hex.
  const dx = SIZE * 0.3;
  return { x: x + (k === 0 ? -dx : dx), y: y + 4 };
}
