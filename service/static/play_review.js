// The review of the player's game (GET /v1/games/{id}/review, the same review as
// `rummy review`): accuracy, the bands of the decisions, the loss per decision, luck,
// the plot drawn inline, each decision, and the clear mistakes as puzzles to retry.

import { el, richText } from "./cards.js";
import { term } from "./terms.js";

const BAND_WORDS = { ok: "Good", inaccuracy: "Inaccuracies", mistake: "Mistakes", blunder: "Blunders" };

/** A figure as the review writes it: one decimal, or the estimate of an interval. */
function figure(value) {
  if (value === null || value === undefined) return "–";
  if (typeof value === "object") return figure(value.estimate);
  return Number.isInteger(value) ? String(value) : Number(value).toFixed(1);
}

/** Elements a plot never needs that could run or load something, or change the page:
 * an inline SVG's style sheet applies to the whole page, and an animation can set a
 * link's href to a javascript: URL after the attributes were checked. */
const UNSAFE_PLOT_ELEMENTS = "script, foreignObject, style, set, animate, animateMotion, animateTransform, iframe, embed, object";

/**
 * The plot (an SVG document the service drew) as a node of the page, with anything that
 * could run or load something (scripts, event handlers, foreign content, style sheets,
 * animations, outside links) taken out; null when it cannot be read.
 */
export function plotNode(text) {
  if (!text) return null;
  const parsed = new DOMParser().parseFromString(text, "image/svg+xml");
  const svg = parsed.documentElement;
  if (!svg || svg.nodeName.toLowerCase() !== "svg" || parsed.querySelector("parsererror")) return null;
  for (const node of parsed.querySelectorAll(UNSAFE_PLOT_ELEMENTS)) node.remove();
  for (const node of [svg, ...svg.querySelectorAll("*")]) {
    for (const attribute of [...node.attributes]) {
      const name = attribute.name.toLowerCase();
      const outside = name.endsWith("href") && !attribute.value.startsWith("#");
      if (name.startsWith("on") || outside) node.removeAttribute(attribute.name);
    }
  }
  // What matplotlib's own style sheet (taken out above) says, for the plot alone.
  svg.setAttribute("stroke-linejoin", "round");
  svg.setAttribute("stroke-linecap", "butt");
  const node = document.importNode(svg, true);
  node.setAttribute("role", "img");
  if (!node.getAttribute("aria-label")) node.setAttribute("aria-label", "The value of the game, decision by decision");
  return node;
}

function summary(review) {
  const facts = el("dl", "facts review-facts");
  facts.id = "review-facts";
  const add = (name, value, key) => {
    const dd = el("dd", "", value);
    dd.dataset.fact = key;
    facts.append(el("dt", "", name), dd);
  };
  add("Accuracy", `${figure(review.accuracy)}%`, "accuracy");
  add("Loss per decision", figure(review.loss_per_decision), "loss_per_decision");
  // Luck is measured on draws the player could not choose (Manipulation Rummy's).
  if (review.draws === undefined || review.draws > 0) {
    const draws = review.draws === undefined ? "" : ` (${review.draws} draw${review.draws === 1 ? "" : "s"})`;
    add("Luck", `${figure(review.luck)}${draws}`, "luck");
  }
  for (const [band, count] of Object.entries(review.bands || {})) add(BAND_WORDS[band] || band, String(count), band);
  return facts;
}

function decisionsTable(decisions) {
  const table = el("table", "decisions");
  table.id = "review-decisions";
  const head = el("tr");
  for (const name of ["Round", "Turn", "You played", "Best", "Loss", "Band"]) head.append(el("th", "", name));
  table.append(el("thead"), el("tbody"));
  table.tHead.append(head);
  for (const decision of decisions) {
    const row = el("tr", `band-${decision.band}`);
    const text = (value) => {
      const cell = el("td");
      cell.append(richText(term(String(value ?? ""))));
      return cell;
    };
    row.append(el("td", "", String(decision.round)), el("td", "", String(decision.turn)), text(decision.played),
      text(decision.best), el("td", "", figure(decision.loss)), el("td", "band", String(decision.band)));
    table.tBodies[0].append(row);
  }
  return table;
}

/** A mistake to retry: the question, what was played, a link that opens it on the Solve tab. */
function puzzleItem(puzzle) {
  const item = el("li", "review-puzzle");
  item.append(el("p", "", term(puzzle.question || "Your move?")));
  if (puzzle.made) {
    const made = el("p", "help");
    made.append("You played: ", richText(term(String(puzzle.made))), ".");
    item.append(made);
  }
  if (puzzle.link) {
    const link = el("a", "retry", "Retry this position");
    link.href = puzzle.link;
    item.append(link);
  }
  const answer = el("details", "review-answer");
  answer.append(el("summary", "", "The advised answer"));
  const words = el("p", "");
  words.append(richText(term(String((puzzle.solution && puzzle.solution.description) || ""))));
  answer.append(words);
  item.append(answer);
  return item;
}

/** Draw a review into root. */
export function renderReview(root, review) {
  const heading = el("h3", "", "Review of your decisions");
  heading.id = "review-heading";
  heading.tabIndex = -1;
  root.replaceChildren(heading, summary(review));
  const plot = plotNode(review.plot_svg);
  if (plot) {
    const box = el("figure", "review-plot");
    box.id = "review-plot";
    box.append(plot);
    root.append(box);
  } else {
    root.append(el("p", "help", "No plot: the service draws it with matplotlib, which it does not have."));
  }
  const decisions = review.decisions || [];
  root.append(el("h4", "", `Your ${decisions.length} decision${decisions.length === 1 ? "" : "s"}`));
  root.append(decisions.length ? decisionsTable(decisions) : el("p", "help", "No decision to review."));
  if (review.samples) {
    const seconds = review.seconds === undefined ? "" : ` in ${figure(review.seconds)} s`;
    root.append(el("p", "note", `Each decision weighed over ${review.samples} sampled deals${seconds}.`));
  }
  const puzzles = review.puzzles || [];
  root.append(el("h4", "", "Your mistakes, as puzzles to retry"));
  if (!puzzles.length) root.append(el("p", "help", "No clear mistake: nothing to retry."));
  else {
    const list = el("ul", "review-puzzles");
    list.id = "review-puzzles";
    for (const puzzle of puzzles) list.append(puzzleItem(puzzle));
    root.append(list);
  }
  root.hidden = false;
}
