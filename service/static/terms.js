// Words and faces that change with the game: Rummikub is played with tiles numbered
// 1-13 in four colours, the card games with cards of four suits.  The notation stays
// the same (7h is the 7 of hearts, or a red 7 tile); only what the page shows changes.

/** Rummikub colours for the notation's suit letters. */
export const TILE_COLOURS = { s: "black", h: "red", d: "blue", c: "orange" };
const TILE_NUMBERS = { A: "1", J: "11", Q: "12", K: "13" };

let tiles = false;

/** Draw tiles (true) or cards (false) from now on; rewrites every [data-term] text. */
export function useTiles(on) {
  tiles = Boolean(on);
  document.documentElement.dataset.faces = tiles ? "tiles" : "cards";
  for (const node of document.querySelectorAll("[data-term]")) node.textContent = term(node.dataset.term);
  for (const node of document.querySelectorAll("[data-cards-help]")) node.hidden = tiles;
  const tileHelp = document.getElementById("tiles-help");
  if (tileHelp) tileHelp.hidden = !tiles;
}

export function usingTiles() {
  return tiles;
}

/** A phrase with "card" as the game says it: "Cards played" -> "Tiles played" in Rummikub. */
export function term(words) {
  return tiles ? words.replace(/card/g, "tile").replace(/Card/g, "Tile") : words;
}

/** The number a tile shows for a rank: A -> 1, J -> 11, Q -> 12, K -> 13. */
export function tileNumber(rank) {
  return TILE_NUMBERS[rank] || rank;
}
