// The player's turn drawn: the table's melds and the hand as cards to press (tiles in
// Rummikub).  Pressing cards selects them (several at once, from the hand and the
// table); "Put here" on a meld, "New meld" or "Back to hand" moves the selection there.
// Cards played from the hand carry the hint view's H badge, cards moved from another
// meld its M badge.

import { cardButton, el } from "./cards.js";
import { deckKey, parsePiece, pieceName } from "./notation.js";
import { term } from "./terms.js";

/** A button with its words and what it does when pressed. */
function button(text, className, onClick) {
  const node = el("button", className, text);
  node.type = "button";
  node.addEventListener("click", onClick);
  return node;
}

/**
 * Draw draft (a TurnDraft) into boardEl (the table) and handEl (the hand).
 * on.select(key), on.move(target) are called on presses; hinted: keys of the hand cards
 * the help named (level 2), ringed; drawn: keys of the cards just drawn, marked.
 */
export function renderDraft(boardEl, handEl, draft, on, { hinted = [], drawn = [] } = {}) {
  const selecting = draft.selected.length > 0;
  const card = (entry, where, mark) => {
    const label = `${pieceName(entry.piece)} in ${where}`;
    const node = cardButton(entry.piece, label, { mark });
    node.dataset.key = String(entry.key);
    node.setAttribute("aria-pressed", String(draft.isSelected(entry.key)));
    node.addEventListener("click", () => on.select(entry.key));
    return node;
  };
  const rows = draft.melds.map((meld, index) => {
    const name = `meld ${index + 1}`;
    const row = el("div", "meld play-meld");
    row.setAttribute("role", "listitem");
    row.dataset.meld = String(index + 1);
    const number = el("span", "meld-number", String(index + 1));
    number.setAttribute("aria-label", `Meld ${index + 1}:`);
    const cards = el("span", "cards");
    for (const entry of meld.items) cards.append(card(entry, name, draft.markOf(entry, meld.id)));
    const put = button("Put here", "put-here", () => on.move(index));
    put.disabled = !selecting || Boolean(draft.refusal(index));
    put.setAttribute("aria-label", `Put the selected ${term("cards")} on meld ${index + 1}`);
    row.append(number, cards, put);
    return row;
  });
  if (!rows.length) rows.push(el("p", "empty", "The table is empty."));
  boardEl.replaceChildren(...rows);

  const hand = draft.hand.map((entry) => {
    const node = card(entry, term("your hand"), null);
    if (hinted.includes(entry.key)) node.classList.add("hinted");
    if (drawn.includes(entry.key)) {
      node.classList.add("drawn");
      node.setAttribute("aria-label", `${node.getAttribute("aria-label")}, just drawn`);
    }
    return node;
  });
  if (!hand.length) hand.push(el("span", "empty", term("Your hand is empty.")));
  handEl.replaceChildren(...hand);
}

/** Hand pieces named by a list (the help's cards, the cards just drawn; in notation or as
 * people read them), as the draft's keys: one each. */
export function hintedKeys(draft, cards) {
  const left = [...draft.hand];
  const keys = [];
  for (const token of cards) {
    const wanted = deckKey(parsePiece(token));
    const at = left.findIndex((entry) => deckKey(entry.piece) === wanted);
    if (at >= 0) keys.push(left.splice(at, 1)[0].key);
  }
  return keys;
}
