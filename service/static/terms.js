// Words and faces that change with the game: Rummikub is played with tiles numbered
// 1-13 in four colours, the card games with cards of four suits.  The notation stays
// the same (7h is the 7 of hearts, or a red 7 tile); only what the page shows changes.

/** Rummikub colours for the notation's suit letters. */
export const TILE_COLOURS = { s: "black", h: "red", d: "blue", c: "orange" };
const TILE_NUMBERS = { A: "1", J: "11", Q: "12", K: "13" };

let tiles = false;

/** The attributes the page writes in the game's words: data-term-placeholder="..." holds
 * the card games' words of a placeholder, data-term-aria-label those of a label read aloud. */
const TERMED_ATTRIBUTES = ["placeholder", "aria-label"];

/** Draw tiles (true) or cards (false) from now on: rewrites every [data-term] text and
 * [data-term-ATTRIBUTE] attribute in the game's words, and shows the help written for the
 * game ([data-cards-help] or [data-tiles-help], where the examples differ too). */
export function useTiles(on) {
  tiles = Boolean(on);
  document.documentElement.dataset.faces = tiles ? "tiles" : "cards";
  for (const node of document.querySelectorAll("[data-term]")) node.textContent = term(node.dataset.term);
  for (const name of TERMED_ATTRIBUTES) {
    for (const node of document.querySelectorAll(`[data-term-${name}]`)) {
      node.setAttribute(name, term(node.getAttribute(`data-term-${name}`)));
    }
  }
  for (const node of document.querySelectorAll("[data-cards-help]")) node.hidden = tiles;
  for (const node of document.querySelectorAll("[data-tiles-help]")) node.hidden = !tiles;
}

export function usingTiles() {
  return tiles;
}

/** Rummikub's words for the card games': tiles, rack, colours, sets (of tiles), numbers. */
const TILE_WORDS = [
  [/card/g, "tile"], [/Card/g, "Tile"],
  [/\bhand(s?)\b/g, "rack$1"], [/\bHand(s?)\b/g, "Rack$1"],
  [/\bsuit(s?)\b/g, "colour$1"], [/\bSuit(s?)\b/g, "Colour$1"],
  [/\bdeck(s?)\b/g, "set$1"], [/\bDeck(s?)\b/g, "Set$1"],
  [/\brank(s?)\b/g, "number$1"], [/\bRank(s?)\b/g, "Number$1"],
];

/** A phrase as the game says it: "Cards played" -> "Tiles played", "Your hand" -> "Your
 * rack", "2 decks" -> "2 sets", "unknown rank" -> "unknown number" in Rummikub.  Every
 * text the page shows in words passes here (the service's too: its messages and moves
 * say cards and hand). */
export function term(words) {
  return tiles ? TILE_WORDS.reduce((text, [pattern, replacement]) => text.replace(pattern, replacement), words) : words;
}

/** A phrase about a given variant, whatever the page shows now (the variant menus list
 * every variant: Rummikub's entry says sets). */
export function termFor(variantName, words) {
  const before = tiles;
  tiles = variantName === "rummikub";
  try {
    return term(words);
  } finally {
    tiles = before;
  }
}

/** A tile's colour letter for the notation's suit letter (s -> k black, h -> r red, d -> b
 * blue, c -> o orange): how tiles are shown and typed. */
export const TILE_LETTERS = { s: "k", h: "r", d: "b", c: "o" };

/** The number a tile shows for a rank: A -> 1, J -> 11, Q -> 12, K -> 13. */
export function tileNumber(rank) {
  return TILE_NUMBERS[rank] || rank;
}
