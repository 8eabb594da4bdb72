// The best play: the final table drawn as cards (hand cards and moved cards marked,
// joker declarations shown), the facts (points left, knock, going out), the independent
// rearrangements (which melds trade cards, which only grow), and the moves, which can be
// stepped through: each step lights up the cards it moves, on the table before and on
// the table after; a rearrangement lights up its melds and its steps.

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

/** A board: numbered melds of cards, each card marked or not (the Play tab draws its
 * read-only tables with it too). */
export function board(melds, { marks = [], label, prefix }) {
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

/** A hand as a row of cards, each marked or not. */
export function handRow(pieces, marks, label) {
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
    item.append(swatch, ` ${term(words)}`);
    box.append(item);
  }
  return box;
}

function fact(list, term, value, flag) {
  const dt = el("dt", "", term);
  const dd = el("dd", flag === undefined ? "" : flag ? "yes" : "no", value);
  list.append(dt, dd);
}

/**
 * Cards in a board to light up for one step: [meld number, card notation] pairs; on the
 * table before, "out" holds the cards the step takes out of the meld it builds on.
 */
function stepTargets(move) {
  const before = { melds: [], cards: [], hand: [], out: [] };
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
    for (const departure of move.remove || []) {
      for (const card of departure.cards) before.out.push([move.on_meld, card]);
    }
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

function lightCard(container, card, mark = "hl") {
  const candidates = [...container.querySelectorAll(".card")].filter(
    (node) => node.dataset.card === card && !node.classList.contains("hl") && !node.classList.contains("hl-out"),
  );
  if (candidates.length) candidates[0].classList.add(mark);
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
  for (const [number, card] of targets.out || []) {
    const meld = boardEl.querySelector(`.meld[data-meld="${number}"]`);
    if (meld) lightCard(meld, card, "hl-out");
  }
  if (handEl) for (const card of targets.hand || []) lightCard(handEl, card);
}

const REARRANGING = new Set(["trade", "split", "join"]);

/** "meld 3" / "melds 1 and 4" / "melds 1, 2 and 5", capitalized. */
function numbered(label, numbers) {
  const text = numbers.length === 1
    ? `${label} ${numbers[0]}`
    : `${label}s ${numbers.slice(0, -1).join(", ")} and ${numbers[numbers.length - 1]}`;
  return text[0].toUpperCase() + text.slice(1);
}

/**
 * The rearrangements as lines for a person, as `rummy hint` prints them: each real one
 * (trade, split, join) on its own line, then the melds that only grow, the new melds from
 * the hand alone and the melds left as they are, each kind on one line.  Each line keeps
 * the old and new melds and the steps it covers.
 */
export function rearrangementLines(groups) {
  const lines = groups.filter((group) => REARRANGING.has(group.kind)).map((group) => ({
    kind: group.kind, text: group.text, old: group.old_melds, new: group.new_melds, steps: group.steps,
    hand: group.hand,
  }));
  const traded = lines.length > 0;
  const merged = (kind, text) => {
    const chosen = groups.filter((group) => group.kind === kind);
    if (!chosen.length) return;
    const line = {
      kind,
      old: chosen.flatMap((group) => group.old_melds),
      new: chosen.flatMap((group) => group.new_melds),
      steps: chosen.flatMap((group) => group.steps),
      hand: chosen.flatMap((group) => group.hand),
    };
    line.text = text(line);
    lines.push(line);
  };
  merged("grow", (line) => `${numbered("meld", line.old)} only grow${line.old.length === 1 ? "s" : ""}, `
    + "with cards from your hand.");
  merged("new", (line) => `${numbered("new meld", line.new)} `
    + `come${line.new.length === 1 ? "s" : ""} from your hand alone.`);
  merged("keep", (line) => `${numbered("meld", line.old)} `
    + `${line.old.length === 1 ? "stays as it is" : "stay as they are"}.`);
  if (!traded && lines.length) {
    lines.unshift({
      kind: "none", text: "No meld trades cards with another.", old: [], new: [], steps: [], hand: [],
    });
  }
  return lines;
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
  summary.append(term(STATUS_WORDS[hint.status] || hint.status));

  const facts = el("dl", "facts");
  facts.id = "hint-facts";
  fact(facts, term("Hand points left"), String(hint.hand_points));
  if (rules.knocks !== false) fact(facts, "Can knock", hint.can_knock ? "Yes" : "No", hint.can_knock);
  fact(facts, "Goes out", hint.goes_out ? "Yes" : "No", hint.goes_out);
  fact(facts, term("Cards played"), String(hint.played.length));
  const left = el("dd", "");
  left.append(miniCards(hint.hand));
  facts.append(el("dt", "", term("Hand left")), left);

  root.append(heading, summary, facts);
  if (!hint.played.length) return;

  const after = board(afterTable, { marks, label: "Table after the play", prefix: "New meld" });
  after.id = "after-board";
  const before = board(beforeTable, { label: "Table before the play", prefix: "Meld" });
  before.id = "before-board";
  const hand = handRow(beforeHand, handMarks, term("Your hand before the play"));
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

  const groupLines = rearrangementLines(hint.rearrangements || []);
  const groupList = el("ul", "rearrangements");
  groupList.id = "rearrangements";
  const groupItems = groupLines.map((line) => {
    const item = el("li", `group group-${line.kind}`);
    item.dataset.kind = line.kind;
    item.dataset.text = line.text;
    item.dataset.old = line.old.join(" ");
    item.dataset.new = line.new.join(" ");
    item.dataset.steps = line.steps.join(" ");
    if (!line.steps.length) {
      item.append(el("span", "group-text", term(line.text)));
    } else {
      const button = el("button", "group-text");
      button.type = "button";
      button.append(richText(line.text));
      button.addEventListener("click", () => showGroup(line, item));
      item.append(button);
    }
    groupList.append(item);
    return item;
  });

  let current = -1;
  function clear() {
    for (const node of root.querySelectorAll(".hl, .hl-out, .hl-meld")) {
      node.classList.remove("hl", "hl-out", "hl-meld");
    }
    for (const node of root.querySelectorAll(".in-group")) node.classList.remove("in-group");
    for (const item of groupItems) item.removeAttribute("aria-current");
  }
  function showGroup(line, item) {
    show(-1);
    current = -1;
    root.classList.add("stepping");
    item.setAttribute("aria-current", "true");
    all.disabled = false;
    for (const number of line.steps) items[number - 1]?.classList.add("in-group");
    where.replaceChildren(`Rearrangement: steps ${line.steps.join(", ")}`, el("span", "sr-only", `: ${term(line.text)}`));
    // A hand joker is "*" in the hand row, "*7h" (its declaration) in the rearrangement.
    const fromHand = line.hand.map((card) => (card.startsWith("*") ? "*" : card));
    light(before, hand, { melds: line.old, cards: [], hand: fromHand });
    light(after, null, { melds: line.new, cards: [] });
  }
  function show(index) {
    current = index;
    clear();
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
    where.replaceChildren(`Step ${index + 1} of ${moves.length}`, el("span", "sr-only", `: ${term(moves[index].text)}`));
    const targets = stepTargets(moves[index]);
    light(before, hand, targets.before);
    light(after, null, targets.after);
  }
  previous.addEventListener("click", () => show(Math.max(0, current - 1)));
  next.addEventListener("click", () => show(Math.min(moves.length - 1, current + 1)));
  all.addEventListener("click", () => show(-1));

  const groupsHeading = el("h3", "", "Independent rearrangements");
  groupsHeading.id = "rearrangements-heading";
  groupList.setAttribute("aria-labelledby", groupsHeading.id);
  if (groupLines.length) root.append(groupsHeading, groupList);

  const howTo = el("h3", "", "How to get there");
  const steps = el("div", "steps");
  const key = el("p", "step-key", term("A step lights up the cards it moves; cards ringed in red are taken out "
    + "of the meld it builds on."));
  steps.append(stepper, key, list);
  const start = el("div", "before");
  start.append(
    el("h3", "", "Table before (melds numbered as in the moves)"), before,
    el("h3", "", term("Your hand")), hand,
  );
  root.append(howTo, steps, start);
  show(-1);
}
