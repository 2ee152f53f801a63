// Reading the canonical notation of the options tree's leaves (the server prints it), so a
// tap on a card can be matched to the leaf it stands for. Nothing here decides legality:
// a leaf is offered only if the server put it in the tree.

const DIRS = "north|east|south|west";

const PATTERNS = [
  [/^take (.+)$/, (m) => ({ kind: "take", name: m[1] })],
  [/^goal (.+)$/, (m) => ({ kind: "goal", name: m[1] })],
  [/^keep face (up|down)$/, (m) => ({ kind: "keep", up: m[1] === "up" })],
  [/^(pass|done|roll|call off|attack again|accept|decline|recycle|privilege|ask nothing)$/, (m) => ({ kind: m[1].replace(" ", "") })],
  [/^attack (.+) with (.+) to (control|neutralize|destroy)(?:, spend (\d+)(?: from (.+))?)?$/, (m) => ({ kind: "attack", target: m[1], attacker: m[2], type: m[3] })],
  [/^aid with (.+)$/, (m) => ({ kind: "aid", card: m[1] })],
  [/^spend (\d+)(?: from (.+))?$/, (m) => ({ kind: "spend", amount: Number(m[1]), source: m[2] || null })],
  [/^privilege by discarding (.+)$/, (m) => ({ kind: "privilege", discard: m[1] })],
  [/^abolish privilege by discarding (.+) and (.+)$/, (m) => ({ kind: "abolish", first: m[1], second: m[2] })],
  [/^interfere (\d+)( against)?$/, (m) => ({ kind: "interfere", amount: Number(m[1]), against: Boolean(m[2]) })],
  [/^give (\d+) from (.+) to (.+)$/, (m) => ({ kind: "transfer", amount: Number(m[1]), source: m[2], dest: m[3] })],
  [/^give (.+) to Player (\d+)$/, (m) => ({ kind: "offer", item: m[1], to: Number(m[2]) - 1 })],
  [/^pay (\d+) to Player (\d+)$/, (m) => ({ kind: "pay", amount: Number(m[1]), to: Number(m[2]) - 1 })],
  [new RegExp(`^move (.+) to (.+) (${DIRS})$`), (m) => ({ kind: "move", group: m[1], host: m[2], direction: m[3] })],
  [new RegExp(`^place (.+) on (.+) (${DIRS})$`), (m) => ({ kind: "place", group: m[1], host: m[2], direction: m[3] })],
  [/^release (.+)$/, (m) => ({ kind: "release", group: m[1] })],
  [/^drop (.+)$/, (m) => ({ kind: "drop", group: m[1] })],
  [/^ask for (\d+) MB$/, (m) => ({ kind: "ask", money: Number(m[1]), group: null })],
  [/^ask for (.+)$/, (m) => ({ kind: "ask", money: 0, group: m[1] })],
  [/^lasers (.+) from (\w+) to (\w+)$/, (m) => ({ kind: "lasers", group: m[1], from: m[2], to: m[3] })],
  [/^lasers (.+) add (\w+)$/, (m) => ({ kind: "lasers", group: m[1], from: null, to: m[2] })],
  [/^lasers (.+) remove (\w+)$/, (m) => ({ kind: "lasers", group: m[1], from: m[2], to: null })],
  [/^play (.+?)(?: on (.+?))?(?: with (.+))?$/, (m) => ({ kind: "play", card: m[1], target: m[2] || null, using: m[3] || null })],
];

/** A leaf's notation as a record ({kind, ...}); unknown text is {kind: "other"}. */
export function readAction(text) {
  const t = String(text).trim();
  for (const [re, build] of PATTERNS) {
    const m = t.match(re);
    if (m) return { ...build(m), text: t };
  }
  return { kind: "other", text: t };
}

export function seatName(seat) {
  return `Player ${seat + 1}`;
}
