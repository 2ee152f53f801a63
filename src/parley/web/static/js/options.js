// Reading the legal-options tree the server sends (kernel OptionNode JSON):
// {key, label, action?, children?, each?}. A leaf carries canonical notation; an inner node
// offers its children as alternatives, or with `each` wants one leaf under every child.
// Nothing here knows a game's rules: it only walks what the server offered.

/** Every leaf under `node`, with the labels of the nodes above it. */
export function leaves(node, path = []) {
  if (!node) return [];
  if (typeof node.action === "string") return [{ action: node.action, label: node.label, path }];
  return (node.children || []).flatMap((child) => leaves(child, [...path, node]));
}

/** Every leaf's notation, as a Set. */
export function actionSet(node) {
  return new Set(leaves(node).map((leaf) => leaf.action));
}

/**
 * The groups of a tree: with `each` at the root, one group per child (one choice wanted in
 * each); otherwise the whole tree is one group of alternatives.
 */
export function groups(root) {
  if (!root) return [];
  if (root.each) return (root.children || []).map((child) => ({ key: child.key, label: child.label, node: child }));
  return [{ key: root.key, label: root.label, node: root }];
}

/** The first child group whose key is `key`, depth first. */
export function findNode(node, key) {
  if (!node) return null;
  if (node.key === key) return node;
  for (const child of node.children || []) {
    const found = findNode(child, key);
    if (found) return found;
  }
  return null;
}

/** Notation compared loosely: case, runs of spaces and spaces around "-" do not matter. */
export function sameNotation(a, b) {
  return normalise(a) === normalise(b);
}

export function normalise(text) {
  return String(text).trim().replace(/\s+/g, " ").replace(/ ?- ?/g, "-").toUpperCase();
}

/** The leaf whose notation matches `text` loosely, or null. */
export function matchLeaf(root, text) {
  const want = normalise(text);
  return leaves(root).find((leaf) => normalise(leaf.action) === want) || null;
}
