// The joker dialog: which card does a joker put on the table stand for?  The setup
// view, the puzzles and the Play tab all ask through it.

import { RANKS, SUITS, SUIT_NAMES } from "./notation.js";
import { TILE_COLOURS, term, tileNumber } from "./terms.js";

const $ = (id) => document.getElementById(id);

/**
 * Fill the dialog's menus once and return askDeclaration(suggestion): a Promise of
 * {rank, suit} (the notation's values, whatever the faces), or null when cancelled.
 */
export function setupJokerDialog() {
  const dialog = $("joker-dialog");
  const rank = $("joker-rank");
  const suit = $("joker-suit");
  rank.append(...RANKS.map((value) => new Option(value, value)));
  suit.append(...SUITS.map((value) => new Option(SUIT_NAMES[value], value)));
  return (suggestion) => new Promise((resolve) => {
    // Tiles: numbers 1-13 and colours; the values stay the notation's ranks and suit letters.
    const tiles = document.documentElement.dataset.faces === "tiles";
    for (const option of rank.options) option.textContent = tiles ? tileNumber(option.value) : option.value;
    for (const option of suit.options) {
      option.textContent = tiles ? TILE_COLOURS[option.value] : SUIT_NAMES[option.value];
    }
    $("joker-suit-label").textContent = tiles ? "Colour" : "Suit";
    $("joker-rank-label").textContent = tiles ? "Number" : "Rank";
    $("joker-question").textContent = term("Which card does it stand for?");
    rank.value = suggestion.rank;
    suit.value = suggestion.suit;
    dialog.returnValue = "";
    dialog.addEventListener("close", () => {
      resolve(dialog.returnValue === "ok" ? { rank: rank.value, suit: suit.value } : null);
    }, { once: true });
    dialog.showModal();
    rank.focus();
  });
}
