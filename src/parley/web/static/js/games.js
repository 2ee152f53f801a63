// Each game's web module is js/<game>/index.js. It exports `Renderer` (the board or table
// class the game page mounts) and may export `manual` (its section of the manual). A game
// without a module is shown by the generic board. Nothing here names a game.

const modules = new Map();

export function gameModule(name) {
  if (!/^[a-z][a-z0-9-]*$/.test(String(name))) return Promise.resolve(null);
  if (!modules.has(name)) {
    modules.set(name, import(`./${name}/index.js`).catch(() => null));
  }
  return modules.get(name);
}
