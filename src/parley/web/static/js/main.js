// The client's entry point: a tiny hash router over the lobby, the manual and a game.

import { api, session } from "./api.js";
import { byId, fill, h } from "./dom.js";
import { GameView } from "./game.js";
import { LobbyView, signInForm } from "./lobby.js";
import { ManualView } from "./manual.js";

let current = null;

function showUser() {
  const user = session.user;
  const who = byId("who");
  if (!user || !session.token) {
    fill(who);
    return;
  }
  fill(
    who,
    h("span", { class: "who-name", title: "signed in" }, user.username),
    h(
      "button",
      {
        class: "linkish",
        type: "button",
        onClick: async () => {
          try {
            await api.logOut();
          } catch {
            // the token may be gone already; forgetting it here is what matters
          }
          session.clear();
          route();
        },
      },
      "Sign out",
    ),
  );
}

function mount(view) {
  if (current && current.unmount) current.unmount();
  current = view;
  const app = byId("app");
  fill(app);
  fill(byId("topbar-game"));
  document.body.dataset.view = view.name || "";
  view.mount(app);
}

async function route() {
  const hash = location.hash.replace(/^#/, "") || "/";
  const parts = hash.split("/").filter(Boolean).map(decodeURIComponent);
  showUser();
  if (parts[0] === "manual") {
    mount(new ManualView(parts[1]));
    return;
  }
  if (!session.token) {
    mount({
      name: "signin",
      mount(app) {
        app.append(signInForm(() => route()));
      },
    });
    return;
  }
  if (parts[0] === "game" && parts[1]) {
    mount(new GameView(parts[1]));
    return;
  }
  mount(new LobbyView());
}

window.addEventListener("hashchange", route);
window.addEventListener("parley:signed-out", () => {
  session.clear();
  route();
});
route();
