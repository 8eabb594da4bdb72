// The advice: every option of the turn ranked by its expected outcome over sampled deals
// (POST /v1/advise), best first, each with its 95% intervals; a play's resulting table on
// demand (a <details> per option); and the game facts the answer used, defaults marked.

import { percent } from "./analysis.js";
import { cardView, el, miniCards } from "./cards.js";
import { parseTable } from "./notation.js";
import { term } from "./terms.js";

/** A number as the page writes it: whole numbers as they are, others with one decimal. */
function number(value) {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/** "12.3 (97.5%: 8.1 to 16.5)"; a bound the service could not compute (null) reads "?". */
function interval(range, format = number, level = "95%") {
  const bound = (value) => (value === null || value === undefined ? "?" : format(value));
  const box = el("span", "interval-value");
  box.append(el("span", "estimate", format(range.estimate)));
  // A certain figure (going out wins the round whatever the deals) has no interval to show.
  if (range.low !== null && range.low !== undefined && range.low === range.high) return box;
  box.append(" ", el("span", "interval", `(${level}: ${bound(range.low)} to ${bound(range.high)})`));
  return box;
}

/** What to do, in words, with the cards drawn: "Play 8♠ 9♠ ★, then knock", "Draw". */
function what(option, decision = "meld") {
  const line = el("span", "advice-what");
  if (option.kind === "knock") {
    line.append("Knock: end the round now");
    return line;
  }
  if (option.kind !== "play") {
    // A pass after the turn's melds declines the knock; at a meld decision it declines the meld.
    const pass = decision === "knock" ? "Pass: do not knock" : "Pass: no meld";
    line.append(option.kind === "draw" ? term("Draw a card instead of melding") : pass);
    return line;
  }
  line.append("Play ", miniCards(option.played));
  if (option.knock === true) line.append(", then knock");
  if (option.knock === false) line.append(", then do not knock");
  return line;
}

/** The table after a play, drawn meld by meld like the hint's board. */
function tableAfter(option) {
  const box = el("details", "advice-table");
  box.append(el("summary", "", "Table after this play"));
  const board = el("div", "board");
  board.setAttribute("role", "list");
  board.setAttribute("aria-label", "The table after this play");
  const melds = parseTable(option.table || "");
  if (!melds.length) board.append(el("p", "empty", "The table is empty."));
  melds.forEach((meld, index) => {
    const row = el("div", "meld");
    row.setAttribute("role", "listitem");
    const name = el("span", "meld-number", String(index + 1));
    name.setAttribute("aria-label", `New meld ${index + 1}:`);
    const cards = el("span", "cards");
    for (const piece of meld) cards.append(cardView(piece));
    row.append(name, cards);
    board.append(row);
  });
  const left = el("p", "advice-left");
  const points = `${option.hand_points} point${option.hand_points === 1 ? "" : "s"}`;
  left.append(term("Hand left: "), miniCards(option.hand || []), ` (${points})`);
  if (option.melds_broken) left.append(`; ${option.melds_broken} meld${option.melds_broken === 1 ? "" : "s"} rearranged`);
  left.append(".");
  box.append(board, left);
  return box;
}

function optionItem(option, index, level, decision = "meld") {
  const item = el("li", "advice-option");
  item.dataset.label = option.label;
  const head = el("p", "advice-head");
  head.append(el("span", "advice-rank", `${index + 1}.`), " ", what(option, decision));
  if (index === 0) head.append(" ", el("span", "advice-best", "best"));
  else if (option.about_as_good) head.append(" ", el("span", "advice-tie", "about as good"));
  const figures = el("dl", "facts advice-figures");
  const add = (name, value, className) => {
    const dd = el("dd", className || "");
    dd.append(value);
    figures.append(el("dt", "", name), dd);
  };
  add("Expected value", interval(option.value, number, level), "advice-value");
  add("Round points", interval(option.points, number, level), "advice-points");
  add("Win chance of the round", interval(option.win, percent, level), "advice-win");
  if (index > 0) add("Given up against the best", interval(option.loss, number, level), "advice-loss");
  add("Deals played", String(option.deals), "advice-deals");
  item.append(head, figures);
  if (option.kind === "play" && option.table !== null) item.append(tableAfter(option));
  return item;
}

/** The variants whose round ends when a hand empties (GameSettings' first_out scoring). */
const FIRST_OUT_VARIANTS = new Set(["machiavelli", "rummikub", "rummikub-peer"]);

const FACT_NAMES = [
  ["players", "Players", (value) => String(value)],
  ["decks", "Decks", (value) => String(value)],
  ["hand_sizes", "Hand sizes (yours first)", (value) => value.join(", ")],
  ["stock", "Stock", (value) => String(value)],
  ["scores", "Scores (yours first)", (value) => value.join(", ")],
  ["draws_left", "Draws left", (value) => String(value)],
  ["unseen", "Unseen cards", (value) => String(value)],
];

/** The facts the answer used; a default is marked "(default)". */
function factsList(data) {
  const list = el("dl", "facts advice-facts");
  list.id = "advice-facts";
  const assumed = new Set(data.facts.assumed);
  for (const [key, name, format] of FACT_NAMES) {
    const dd = el("dd", "", format(data.facts[key]));
    dd.dataset.fact = key;
    if (assumed.has(key)) {
      dd.classList.add("assumed");
      dd.append(" ", el("span", "default-tag", "(default)"));
    }
    list.append(el("dt", "", term(name)), dd);
  }
  const budget = el("dd", "", `${number(data.budget_seconds)} s`);
  budget.dataset.fact = "budget_seconds";
  list.append(el("dt", "", "Seconds to think"), budget);
  return list;
}

/** Draw an advice answer (the /v1/advise JSON) into root. */
export function renderAdvice(root, data) {
  root.replaceChildren();
  const heading = el(
    "h2",
    "",
    data.decision === "knock"
      ? "Knock or pass, once the turn's melds and draws are done: best first"
      : "The options of the turn, best first",
  );
  heading.id = "advice-heading";
  heading.tabIndex = -1;
  const level = `${Number((100 * data.confidence).toFixed(1))}%`;
  // Machiavelli and Rummikub end when a hand empties: a round still running after the
  // rollouts' turns is valued by its race to go out (solver/strategy/evaluator.py).
  const firstOut = FIRST_OUT_VARIANTS.has(data.facts.variant);
  const value = firstOut
    ? "six more turns, your later turns played greedily or holding melds back, whichever is worth " +
      "more). Round win: the chance to go out first (a round still running then is a race: a " +
      `${term("hand")} whose best play empties it goes out first, else even chances). Value: 100 ` +
      "for the round won or lost, plus the points of a round that ended"
    : "three more turns, your later turns played greedily or holding melds back, whichever is worth " +
      "more). Value: round points plus 25 for the round won or lost (and 100 for a game)";
  const how = el(
    "p",
    "help",
    `Each option played out in the same sampled deals of the unseen ${term("cards")} (the best and ` +
      `the options the deals leave undecided in more of them, up to ${data.samples}), ` +
      `as our search bot weighs its choices (${value}; intervals at ${level}, so that 95% holds ` +
      "over the looks of sequential sampling. \"About as good\": the deals cannot tell " +
      "that option from the best.",
  );
  const list = el("ol", "advice-options");
  list.id = "advice-options";
  // A knock decision's pass declines the knock (a game's advice may not say which it weighed).
  const decision = data.decision === "knock" || data.options.some((o) => o.kind === "knock") ? "knock" : "meld";
  data.options.forEach((option, index) => list.append(optionItem(option, index, level, decision)));
  const facts = el("div", "advice-facts-box");
  facts.append(el("h3", "", "Game facts used"), factsList(data));
  const note = el(
    "p",
    "note",
    `${data.samples} deals in ${number(data.seconds)} s` +
      (data.stopped_by_budget
        ? ": the time budget stopped the sampling, so this answer depends on the machine; more seconds give the full answer."
        : ": the same question gives the same answer."),
  );
  note.id = "advice-note";
  root.append(heading, how, list);
  // No deal of any option saw a hand go out: every value is the even race's 0, which would
  // read as a certain draw (the CLI says the same).
  const even = (option) => option.value.estimate === 0 && option.value.low === 0 && option.value.high === 0;
  if (firstOut && data.options.every(even)) {
    const said = el(
      "p",
      "note",
      "No deal saw a hand go out within the six turns played: every option is an even race in every " +
        "deal, so the deals cannot rank them. They are listed in the order they were built, the best " +
        `play first; the points are what each ${term("hand")}'s best play would leave then, not a ranking.`,
    );
    said.id = "advice-even";
    root.append(said);
  }
  root.append(facts, note);
}

/** The default each fact field shows once an answer says what it assumed. */
export function factPlaceholders(data) {
  const assumed = new Set(data.facts.assumed);
  const shown = {};
  if (assumed.has("hand_sizes")) shown["hand-sizes"] = data.facts.hand_sizes.slice(1).join(", ");
  if (assumed.has("stock")) shown.stock = String(data.facts.stock);
  if (assumed.has("scores")) shown.scores = data.facts.scores.join(", ");
  if (assumed.has("draws_left")) shown["draws-left"] = String(data.facts.draws_left);
  shown.budget = String(data.budget_seconds);
  return shown;
}
