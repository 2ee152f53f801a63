// The So Long Sucker section of the manual: prose only; the rules are applied by the server.

import { h } from "../dom.js";

const p = (...text) => h("p", {}, ...text);
const li = (...text) => h("li", {}, ...text);

export const manual = {
    key: "sucker",
    title: "So Long Sucker",
    body: () => [
      h("h3", {}, "The rules in brief"),
      p("A game of coalitions by Hausner, Nash, Shapley and Shubik (1964), for 3 to 6 players. Each player owns a colour and starts with chips of it. The last player left in the game wins; alliances are necessary, and so is betrayal."),
      h(
        "ul",
        {},
        li(h("strong", {}, "Moving"), ": the player with the move plays one chip from their hand — their own colour or a prisoner — onto a pile, or starts a new pile."),
        li(h("strong", {}, "Capture"), ": if the chip played is the same colour as the chip just below it, the owner of that colour captures the pile: they kill one chip of it (to the dead box), keep the rest as prisoners, and move next."),
        li(h("strong", {}, "Who moves next"), ": otherwise, if some colour is missing from the pile, the mover gives the move to the owner of a missing colour (their choice if several are missing). If every colour is in the pile, the owner of the colour whose latest chip lies deepest moves."),
        li(h("strong", {}, "Prisoners"), " may be killed or given to another player at any time."),
        li(h("strong", {}, "No chips"), ": a player given the move without chips asks the others, in turn, to rescue them with prisoners. If nobody does, they are defeated, and the move goes back to whoever gave it."),
        li(h("strong", {}, "Bargains"), ": any agreement may be proposed and accepted — and broken. The game records them, but never enforces them."),
      ),
      h("h3", {}, "At the table"),
      h(
        "ul",
        {},
        li("The banner above the table says who must act and why (who has the move, who chooses the next player, who kills a captured chip, who is asked to rescue)."),
        li("When you have the move, click one of your chips below the piles, then a highlighted pile or “New pile”."),
        li("Choices of the next player, kills and rescues appear as buttons when they are yours to make."),
        li("Your prisoners can be killed or given away from “Your prisoners”."),
        li("Bargains live in the Chat tab: “Propose a bargain…” builds one (promises of chips, promises to pass the move, a note); open bargains show Accept, Reject or Withdraw."),
      ),
    ],
  };
