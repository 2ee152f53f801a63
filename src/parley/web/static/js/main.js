// The client's entry point: a tiny hash router over the lobby, the manual and a game.

import { api, session } from "./api.js";
import { byId, dialog, fill, h } from "./dom.js";
import { GameView } from "./game.js";
import { LobbyView, signInForm } from "./lobby.js";
import { ManualView } from "./manual.js";
import { SandboxView } from "./sandbox.js";

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
    h("button", { class: "linkish", type: "button", id: "keep-name", onClick: () => keepName(user) }, user.has_password ? "Account" : "Keep this name"),
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

/** Keep the name: a password (for any browser) or a one-time recovery code to write down. */
function keepName(user) {
  dialog("Keep this name", (close) => {
    const note = h("p", { class: "muted small", id: "keep-note", role: "status" });
    const pw = h("input", { id: "keep-password", type: "password", autocomplete: "new-password", minlength: 8, maxlength: 256 });
    const current = h("input", { id: "keep-current", type: "password", autocomplete: "current-password", maxlength: 256 });
    const codeOut = h("code", { id: "keep-code-text" });
    const savePassword = async () => {
      try {
        const out = await api.setPassword(pw.value, user.has_password ? current.value : undefined);
        session.save({ token: session.token, user: out });
        note.textContent = "Password saved: sign in with it from any browser.";
        showUser();
      } catch (err) {
        note.textContent = err.message || String(err);
      }
    };
    const makeCode = async () => {
      try {
        const out = await api.recoveryCode();
        codeOut.textContent = out.code;
        note.textContent = "Write this code down: it signs this name in once from another browser (enter it under “Password” on the sign-in page). A new code replaces this one.";
      } catch (err) {
        note.textContent = err.message || String(err);
      }
    };
    return h(
      "div",
      {},
      h("p", {}, user.has_password ? `“${user.username}” has a password. You may change it, or make a recovery code.` : `“${user.username}” has no password: only this browser can use it. Give it a password, or make a recovery code, to use it elsewhere.`),
      user.has_password ? h("label", { for: "keep-current" }, "Current password") : null,
      user.has_password ? current : null,
      h("label", { for: "keep-password" }, "New password (at least 8 characters)"),
      pw,
      h("div", { class: "row" }, h("button", { type: "button", class: "primary", id: "keep-password-save", onClick: savePassword }, "Save the password"), h("button", { type: "button", id: "keep-code", onClick: makeCode }, "Make a recovery code")),
      h("p", {}, codeOut),
      note,
      h("div", { class: "row end" }, h("button", { type: "button", id: "keep-close", onClick: () => close(null) }, "Close")),
    );
  });
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
  if (hash.split("?")[0].replace(/^\//, "") === "sandbox") {
    mount(new SandboxView(new URLSearchParams(hash.split("?")[1] || "")));
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
