// The best play: the final table drawn as cards (hand cards and moved cards marked,
// joker declarations shown), the facts (points left, knock, going out), and the moves,
// which can be stepped through: each step lights up the cards it moves, on the table
// before and on the table after.

import { cardView, el, miniCards, richText } from "./cards.js";
import { parseHand, parsePiece, parseTable, splitPosition } from "./notation.js";
import { term } from "./terms.js";

const STATUS_WORDS = {
  optimal: "Best play, proven.",
  feasible: "A good play: the time limit stopped the proof that it is the best.",
  no_play: "No legal play: keep your hand (draw, if the rules let you).",
  timeout: "No play found in the time limit.",
};

/** Take one copy of item out of list; true when there was one. */
function take(list, item) {
  const at = list.indexOf(item);
  if (at < 0) return false;
  list.splice(at, 1);
  return true;
}

/**
 * For each card of the final table: "hand" (played from the hand), "moved" (came from
 * another old meld), "joker" (a freed table joker with a new declaration), or null.
 */
export function finalMarks(melds, moves, played) {
  const arriving = melds.map(() => ({ hand: [], moved: [], joker: [] }));
  for (const move of moves) {
    const target = arriving[move.new_meld - 1];
    if (!target) continue;
    if (move.action === "meld") {
      for (const transfer of move.add) {
        target[transfer.from === "hand" ? "hand" : "moved"].push(...transfer.cards);
      }
    } else if (move.action === "joker") {
      target.joker.push(`*${move.declared}`);
    }
  }
  if (!moves.length) {
    // No plan (should not happen with a play): mark the played cards wherever they are.
    const left = [...played];
    return melds.map((meld) => meld.map((card) => (take(left, card) ? "hand" : null)));
  }
  return melds.map((meld, index) => meld.map((card) => {
    const { hand, moved, joker } = arriving[index];
    if (take(joker, card)) return "joker";
    if (take(hand, card)) return "hand";
    if (take(moved, card)) return "moved";
    return null;
  }));
}

/** A board: numbered melds of cards, each card marked or not. */
function board(melds, { marks = [], label, prefix }) {
  const root = el("div", "board");
  root.setAttribute("role", "list");
  root.setAttribute("aria-label", label);
  if (!melds.length) root.append(el("p", "empty", "The table is empty."));
  melds.forEach((meld, index) => {
    const row = el("div", "meld");
    row.setAttribute("role", "listitem");
    row.dataset.meld = String(index + 1);
    const name = el("span", "meld-number", String(index + 1));
    name.title = `${prefix} ${index + 1}`;
    name.setAttribute("aria-label", `${prefix} ${index + 1}:`);
    const cards = el("span", "cards");
    meld.forEach((piece, at) => cards.append(cardView(piece, { mark: (marks[index] || [])[at] || null })));
    row.append(name, cards);
    root.append(row);
  });
  return root;
}

function handRow(pieces, marks, label) {
  const row = el("div", "hand-row");
  row.setAttribute("aria-label", label);
  if (!pieces.length) row.append(el("span", "empty", "empty"));
  pieces.forEach((piece, index) => row.append(cardView(piece, { mark: marks[index] || null })));
  return row;
}

function legend() {
  const box = el("p", "legend");
  box.append("Marks: ");
  for (const [mark, badge, words] of [
    ["hand", "H", "played from your hand"],
    ["moved", "M", "moved from another meld"],
    ["joker", "J", "freed joker with a new card"],
  ]) {
    const item = el("span", `legend-item mark-${mark}`);
    const swatch = el("span", "badge", badge);
    swatch.setAttribute("aria-hidden", "true");
    item.append(swatch, ` ${words}`);
    box.append(item);
  }
  return box;
}

function fact(list, term, value, flag) {
  const dt = el("dt", "", term);
  const dd = el("dd", flag === undefined ? "" : flag ? "yes" : "no", value);
  list.append(dt, dd);
}

/** Cards in a board to light up for one step: [meld number, card notation] pairs. */
function stepTargets(move) {
  const before = { melds: [], cards: [], hand: [] };
  const after = { melds: [], cards: [] };
  if (move.action === "keep") {
    for (const pair of move.melds) {
      before.melds.push(pair.old);
      after.melds.push(pair.new);
    }
  } else if (move.action === "joker") {
    before.cards.push([move.old_meld, move.joker]);
    if (move.freed_by_from === "hand") before.hand.push(move.freed_by);
    else before.cards.push([move.freed_by_from, move.freed_by]);
    after.melds.push(move.new_meld);
    after.cards.push([move.new_meld, `*${move.declared}`]);
  } else if (move.action === "meld") {
    if (move.on_meld) before.melds.push(move.on_meld);
    after.melds.push(move.new_meld);
    for (const transfer of move.add) {
      for (const card of transfer.cards) {
        if (transfer.from === "hand") before.hand.push(card);
        else before.cards.push([transfer.from, card]);
        after.cards.push([move.new_meld, card]);
      }
    }
  }
  return { before, after };
}

function lightCard(container, card) {
  const candidates = [...container.querySelectorAll(".card")].filter(
    (node) => node.dataset.card === card && !node.classList.contains("hl"),
  );
  if (candidates.length) candidates[0].classList.add("hl");
}

function light(boardEl, handEl, targets) {
  for (const number of targets.melds) {
    const meld = boardEl.querySelector(`.meld[data-meld="${number}"]`);
    if (meld) meld.classList.add("hl-meld");
  }
  for (const [number, card] of targets.cards) {
    const meld = boardEl.querySelector(`.meld[data-meld="${number}"]`);
    if (meld) lightCard(meld, card);
  }
  if (handEl) for (const card of targets.hand || []) lightCard(handEl, card);
}

/**
 * Draw a hint (the shared hint JSON with "moves") into root.  Returns nothing; the
 * stepper's buttons live inside root.  rules.knocks: false for variants without knocking.
 */
export function renderHint(root, hint, rules = {}) {
  root.replaceChildren();
  const [tableText, handText] = splitPosition(hint.position);
  // The moves number old melds as the request wrote them: old_table is that order.
  const beforeTable = parseTable(hint.old_table === undefined ? tableText : hint.old_table);
  const beforeHand = parseHand(handText);
  const afterTable = hint.melds.map((meld) => meld.map(parsePiece));
  const marks = finalMarks(hint.melds, hint.moves || [], hint.played);
  const played = [...hint.played];
  const handMarks = beforeHand.map((piece) => {
    const token = piece.joker ? "*" : `${piece.rank}${piece.suit}`;
    const hit = played.findIndex((card) => card === token || (token === "*" && card.startsWith("*")));
    if (hit < 0) return null;
    played.splice(hit, 1);
    return "hand";
  });

  const heading = el("h2", "", "Best play");
  heading.id = "hint-heading";
  heading.tabIndex = -1;
  const summary = el("p", "summary");
  summary.id = "hint-summary";
  if (hint.played.length) {
    summary.append("Play ", miniCards(hint.played), ". ");
  }
  summary.append(STATUS_WORDS[hint.status] || hint.status);

  const facts = el("dl", "facts");
  facts.id = "hint-facts";
  fact(facts, "Hand points left", String(hint.hand_points));
  if (rules.knocks !== false) fact(facts, "Can knock", hint.can_knock ? "Yes" : "No", hint.can_knock);
  fact(facts, "Goes out", hint.goes_out ? "Yes" : "No", hint.goes_out);
  fact(facts, term("Cards played"), String(hint.played.length));
  const left = el("dd", "");
  left.append(miniCards(hint.hand));
  facts.append(el("dt", "", "Hand left"), left);

  root.append(heading, summary, facts);
  if (!hint.played.length) return;

  const after = board(afterTable, { marks, label: "Table after the play", prefix: "New meld" });
  after.id = "after-board";
  const before = board(beforeTable, { label: "Table before the play", prefix: "Meld" });
  before.id = "before-board";
  const hand = handRow(beforeHand, handMarks, "Your hand before the play");
  hand.id = "before-hand";

  root.append(el("h3", "", "Table after the play"), legend(), after);

  const moves = hint.moves || [];
  const stepper = el("div", "stepper");
  stepper.setAttribute("role", "group");
  stepper.setAttribute("aria-label", "Step through the moves");
  const previous = el("button", "", "◀ Previous");
  const next = el("button", "", "Next ▶");
  const all = el("button", "", "Show all");
  previous.type = next.type = all.type = "button";
  previous.id = "step-prev";
  next.id = "step-next";
  all.id = "step-all";
  const where = el("span", "step-where", "All steps");
  where.id = "step-where";
  where.setAttribute("aria-live", "polite");
  stepper.append(previous, next, all, where);

  const list = el("ol", "moves");
  list.id = "moves";
  const items = moves.map((move, index) => {
    const item = el("li", `move move-${move.action}`);
    item.dataset.text = move.text;
    const button = el("button", "move-text");
    button.type = "button";
    const number = el("span", "step-number", String(index + 1));
    number.setAttribute("aria-hidden", "true");
    const words = el("span", "");
    words.append(richText(move.text));
    button.append(number, words);
    button.addEventListener("click", () => show(index));
    item.append(button);
    list.append(item);
    return item;
  });

  let current = -1;
  function show(index) {
    current = index;
    for (const node of root.querySelectorAll(".hl, .hl-meld")) node.classList.remove("hl", "hl-meld");
    root.classList.toggle("stepping", index >= 0);
    items.forEach((item, at) => {
      if (at === index) item.setAttribute("aria-current", "step");
      else item.removeAttribute("aria-current");
    });
    previous.disabled = index <= 0;
    next.disabled = index >= moves.length - 1;
    all.disabled = index < 0;
    if (index < 0) {
      where.textContent = `All ${moves.length} step${moves.length === 1 ? "" : "s"}`;
      return;
    }
    where.replaceChildren(`Step ${index + 1} of ${moves.length}`, el("span", "sr-only", `: ${moves[index].text}`));
    const targets = stepTargets(moves[index]);
    light(before, hand, targets.before);
    light(after, null, targets.after);
  }
  previous.addEventListener("click", () => show(Math.max(0, current - 1)));
  next.addEventListener("click", () => show(Math.min(moves.length - 1, current + 1)));
  all.addEventListener("click", () => show(-1));

  const howTo = el("h3", "", "How to get there");
  const steps = el("div", "steps");
  steps.append(stepper, list);
  const start = el("div", "before");
  start.append(
    el("h3", "", "Table before (melds numbered as in the moves)"), before,
    el("h3", "", "Your hand"), hand,
  );
  root.append(howTo, steps, start);
  show(-1);
}
