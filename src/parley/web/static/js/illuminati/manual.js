// The Illuminati section of the manual: prose only; the rules are applied by the server.

import { h } from "../dom.js";

const p = (...text) => h("p", {}, ...text);
const li = (...text) => h("li", {}, ...text);

export const manual = {
  key: "illuminati",
  title: "Illuminati",
  body: () => [
    h("h3", {}, "The game in brief"),
    p("Each player leads a secret conspiracy (an Illuminati card) and builds a power structure of groups hung on its arrows. Groups are won by attacking them, money (megabucks, MB) pays for attacks and defences, and the others may interfere with money or special cards. A player wins by controlling enough groups, or by reaching the special goal of their Illuminati."),
    h("h3", {}, "At the table"),
    h(
      "ul",
      {},
      li("Each card shows its name, power/transferable power (P), resistance (R), income (I), alignments and its ability in a line; money lying on a card is shown on it. Tap a card to read it whole."),
      li("Power structures are drawn on their grid: a filled triangle is an arrow with a card on it, a hollow one is a free arrow. Use “Everyone” or a player's name to focus, and − / + to zoom; a large structure scrolls."),
      li(h("strong", {}, "Attacking"), ": tap “Attack to control” (or neutralize, destroy), tap the target, then the card of yours that attacks. The attack is then being announced: the number needed on two dice is shown and changes as you tap aiding cards and spend money. “Announce the attack” lets the others answer; “Call it off” is possible until money is spent."),
      li(h("strong", {}, "Answering"), ": when an attack is announced, each other player in turn gets a prompt: interfere for or against with money, play a special card, or pass. The countdown says when the default (pass) is taken."),
      li(h("strong", {}, "Money, moves, gifts"), ": “Transfer money” (tap the giver, then the receiver, then the amount), “Move a group” (tap the group, then a highlighted free arrow), “Drop a group”, “Give away…” and “Give money…” open small forms."),
      li(h("strong", {}, "No room"), ": when a captured group or its puppets do not fit, a choice appears: tap a highlighted free arrow for each, or release it to the uncontrolled area."),
      li("Special cards kept face down are seen only by their holder; the others see a card back. Spectators see the public table."),
      li("“Every option as notation” lists all that the server allows you to do now, as text, for anything the taps do not reach."),
    ),
  ],
};
