// Reading So Long Sucker's canonical notation as the server prints it ("play red on 2",
// "play blue new", "next green", "kill yellow", "kill prisoner red", "give red to blue",
// "rescue blue with 2 red, green", "decline", "accept 3"), so a leaf of the options tree
// can be matched to a click on a chip or a pile. Which actions exist is the server's word.

const PATTERNS = [
  ["play", /^play ([a-z]+) (?:on (\d+)|new)$/],
  ["next", /^next ([a-z]+)$/],
  ["killPrisoner", /^kill prisoner ([a-z]+)$/],
  ["kill", /^kill ([a-z]+)$/],
  ["give", /^give ([a-z]+) to ([a-z]+)$/],
  ["rescue", /^rescue ([a-z]+) with (.+)$/],
  ["decline", /^decline$/],
  ["accept", /^accept (\d+)$/],
  ["reject", /^reject (\d+)$/],
  ["withdraw", /^withdraw (\d+)$/],
];

/** A structured reading of one action's notation, or null. */
export function readAction(text) {
  const t = String(text || "").trim().toLowerCase().replace(/\s+/g, " ");
  for (const [kind, re] of PATTERNS) {
    const m = re.exec(t);
    if (!m) continue;
    switch (kind) {
      case "play":
        return { kind, chip: m[1], pile: m[2] === undefined ? null : Number(m[2]), text };
      case "next":
        return { kind, player: m[1], text };
      case "kill":
      case "killPrisoner":
        return { kind, chip: m[1], text };
      case "give":
        return { kind, chip: m[1], to: m[2], text };
      case "rescue":
        return { kind, target: m[1], chips: m[2], text };
      case "accept":
      case "reject":
      case "withdraw":
        return { kind, bargain: Number(m[1]), text };
      default:
        return { kind, text };
    }
  }
  return null;
}

/** A promise of a bargain, in the notation the server reads. */
export function formatTerm(term) {
  if (term.type === "pass") return `${term.chooser} passes to ${term.to}`;
  const count = Number(term.count) > 1 ? `${Number(term.count)} ` : "";
  return `${term.giver} gives ${count}${term.chip} to ${term.to}`;
}

/** A proposal, e.g. `propose to blue, green: red gives green to blue; "together?"`. */
export function formatProposal({ to, terms, note, privately }) {
  const parts = terms.map(formatTerm);
  const clean = String(note || "").replace(/"/g, "'").trim();
  if (clean) parts.push(`"${clean}"`);
  return `${privately ? "propose privately to " : "propose to "}${to.join(", ")}: ${parts.join("; ")}`;
}
