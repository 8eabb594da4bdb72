// Graded help in a game, drawn: level 1 says whether a play exists and the points it
// leaves, level 2 which hand cards it uses, level 3 the whole play (its steps and the
// table after, which the player may put on the table); the advice is drawn by
// advice.js.  Every use is recorded by the server; the state's help_used lists them.

import { renderAdvice } from "./advice.js";
import { el, miniCards, richText } from "./cards.js";
import { board } from "./hint.js";
import { parseTable } from "./notation.js";
import { term } from "./terms.js";

const LEVEL_NAMES = { 1: "Is there a play?", 2: "Which cards?", 3: "Show the play" };

const plural = (count, word) => `${count} ${word}${count === 1 ? "" : "s"}`;

/** The answer's first line: a play or not, and the points it leaves. */
function verdict(answer) {
  const line = el("p", "help-verdict");
  if (!answer.exists) {
    line.append(el("strong", "", "No play now."), term(" Nothing from your hand can go on the table this turn."));
    return line;
  }
  const left = answer.points_left === undefined || answer.points_left === null ? ""
    : term(`: the best one leaves ${plural(answer.points_left, "point")} in your hand`);
  line.append(el("strong", "", "There is a play"), `${left}.`);
  return line;
}

/** Draw a help answer (POST /v1/games/{id}/help) into root; onApply(tableText) puts a shown play on the table. */
export function renderHelp(root, answer, { onApply = null } = {}) {
  const heading = el("h3", "", term(`Help, level ${answer.level}: ${LEVEL_NAMES[answer.level] || ""}`));
  heading.id = "help-heading";
  heading.tabIndex = -1;
  root.replaceChildren(heading, verdict(answer));
  if (answer.level >= 2 && answer.exists) {
    const cards = el("p", "help-cards");
    cards.id = "help-cards";
    cards.append(term("It uses these cards of your hand: "), miniCards(answer.cards || []), ".");
    root.append(cards);
  }
  if (answer.level >= 3 && answer.exists) {
    const steps = el("ol", "moves help-steps");
    steps.id = "help-steps";
    for (const step of answer.steps || []) {
      steps.append(el("li", "move"));
      steps.lastChild.append(richText(term(typeof step === "string" ? step : step.text || "")));
    }
    const after = board(parseTable(answer.table || ""), { label: "Table after the play", prefix: "New meld" });
    after.id = "help-table";
    root.append(el("h4", "", "How to get there"), steps, el("h4", "", "Table after the play"), after);
    if (onApply) {
      const apply = el("button", "primary", "Put this play on the table");
      apply.type = "button";
      apply.id = "help-apply";
      apply.addEventListener("click", () => onApply(answer.table));
      root.append(apply);
    }
  }
  root.hidden = false;
}

/** Draw the advice (POST /v1/games/{id}/advise) into root; its ids are prefixed, so that
 * they do not clash with the Solve tab's advice. */
export function renderGameAdvice(root, data) {
  renderAdvice(root, data);
  for (const node of root.querySelectorAll("[id]")) node.id = `play-${node.id}`;
  root.hidden = false;
}

/** "Help used this game: level 1 three times, level 3 once." from the state's help_used
 * (an advice is counted too when the state lists it). */
export function helpUsedText(used) {
  if (!used || !used.length) return "No help used yet this game.";
  const counts = new Map();
  for (const entry of used) {
    const what = entry.kind === "advice" || entry.level === "advice" ? "advice" : `level ${entry.level}`;
    counts.set(what, (counts.get(what) || 0) + 1);
  }
  const times = (count) => (count === 1 ? "once" : count === 2 ? "twice" : `${count} times`);
  const words = [...counts.keys()].sort().map((what) => `${what} ${times(counts.get(what))}`);
  return `Help used this game: ${words.join(", ")}.`;
}
