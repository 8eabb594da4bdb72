// The analysis: meld now or draw first (the exact figures), the chances to knock or go
// out after a draw, and the outs, each with its chance to be drawn.

import { el, miniCard, miniCards } from "./cards.js";
import { parsePiece } from "./notation.js";
import { term } from "./terms.js";

export function percent(probability) {
  const value = 100 * probability;
  if (value > 0 && value < 0.1) return "<0.1%";
  return `${value.toFixed(value >= 10 || value === 0 ? 0 : 1)}%`;
}

function points(value) {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

/** A labelled bar for a probability. */
function chance(label, probability, id) {
  const row = el("div", "chance");
  row.id = id;
  const name = el("span", "chance-label", label);
  const bar = el("span", "bar");
  bar.setAttribute("role", "img");
  bar.setAttribute("aria-label", `${label}: ${percent(probability)}`);
  const fill = el("span", "bar-fill");
  fill.style.width = `${Math.min(100, 100 * probability)}%`;
  bar.append(fill);
  row.append(name, bar, el("span", "chance-value", percent(probability)));
  return row;
}

/** The outs as cards, each with "n of N, p%". */
function outsList(cards, copiesOf, unseen, id, label) {
  const list = el("ul", "outs");
  list.id = id;
  list.setAttribute("aria-label", label);
  if (!cards.length) list.append(el("li", "empty", "none"));
  for (const card of cards) {
    const copies = copiesOf.get(card) || 0;
    const item = el("li", "out");
    item.dataset.card = card;
    item.append(miniCard(parsePiece(card)), el("span", "odds", `${copies}/${unseen} · ${percent(copies / unseen)}`));
    list.append(item);
  }
  return list;
}

/**
 * Draw an analysis into root; rules.knocks: false for variants without knocking (no knock figures);
 * rules.drawEndsTurn: a draw ends the turn (Machiavelli, Rummikub), so the drawn card is played
 * next turn at the earliest and the figures say so (Manipulation Rummy's turn goes on after a draw).
 */
/** "2 players (assumed): 1 deck, 1 joker; 42 unseen cards." (solver.facts.describe's words). */
export function factsText(facts) {
  const plural = (count, word) => `${count} ${word}${count === 1 ? "" : "s"}`;
  const players = facts.players === null ? "any number of players" : plural(facts.players, "player");
  const assumed = facts.assumed.includes("players") ? " (assumed)" : "";
  const jokers = facts.jokers ? plural(facts.jokers, "joker") : "no jokers";
  return term(`${players}${assumed}: ${plural(facts.decks, "deck")}, ${jokers}; ${facts.unseen} unseen cards.`);
}

export function renderAnalysis(root, data, rules = {}) {
  const knocks = rules.knocks !== false;
  root.replaceChildren();
  const later = rules.drawEndsTurn === true;
  const heading = el("h2", "", later ? "Meld now or draw?" : "Meld now or draw first?");
  heading.id = "analysis-heading";
  heading.tabIndex = -1;
  const advice = el("p", `advice advice-${data.advice}`);
  advice.id = "analysis-advice";
  const word = el("strong", "", data.advice === "meld" ? "Meld now." : later ? "Draw." : "Draw first.");
  advice.append(word, " ");
  const drawing = later ? "Drawing and playing next turn" : "Drawing first";
  if (!data.can_meld_now) advice.append("No legal play now, so drawing is the only choice.");
  else if (data.advice === "meld") advice.append(`${drawing} is not expected to leave fewer points.`);
  else advice.append(`${drawing} is expected to leave fewer points than melding now.`);
  if (later && data.can_meld_now) {
    advice.append(" A draw ends the turn: the figures take the table as it is now at your next turn " +
      "(the others play first) and compare points only; Advice weighs melding against drawing over sampled games.");
  }

  const facts = el("p", "help");
  facts.id = "analysis-facts";
  if (data.facts) facts.append(factsText(data.facts));

  const figures = el("dl", "facts figures");
  figures.id = "analysis-figures";
  const add = (term, value) => figures.append(el("dt", "", term), el("dd", "", value));
  add("Points left if you meld now", points(data.meld_now_points));
  add(later ? "Expected points if you draw and play next turn" : "Expected points if you draw first",
    points(data.draw_expected_points));
  add(term("Hand points now"), points(data.hand_points));
  add(term("Unseen cards"), String(data.unseen_cards));
  add("Different best plays", `${data.optimal_plays}${data.optimal_plays_capped ? " or more" : ""}`);

  const chances = el("div", "chances");
  chances.append(el("h3", "", later ? "After one draw and the best play next turn" : "After one draw and the best play"));
  if (knocks) chances.append(chance("Chance to knock", data.knock_probability, "knock-chance"));
  chances.append(chance("Chance to go out", data.out_probability, "out-chance"));

  const copiesOf = new Map(data.draws.map((draw) => [draw.card, draw.copies]));
  const outs = el("div", "outs-box");
  outs.append(
    el("h3", "", "Outs: draws that let you go out"),
    outsList(data.outs.go_out, copiesOf, data.unseen_cards, "outs-go-out", term("Cards that let you go out")),
  );
  if (knocks) {
    outs.append(
      el("h3", "", "Draws that let you knock"),
      outsList(data.outs.knock, copiesOf, data.unseen_cards, "outs-knock", term("Cards that let you knock")),
    );
  }

  const playable = el("p", "playable");
  playable.append(term("Hand cards playable now: "), miniCards(data.playable), ". Not playable now: ",
    miniCards(data.never_playable), ".");
  const note = el("p", "note",
    data.exact ? "Every figure is exact." : "A time limit stopped some solve: the figures are estimates.");
  root.append(heading, advice, facts, figures, chances, outs, playable, note);
}
