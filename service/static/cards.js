// Cards drawn with HTML, CSS and the SVG suit symbols defined once in index.html.
//
// Every card carries data-card (its notation) so that the page, its tests and the step
// highlighting can find it, and a spoken name for screen readers.

import { SUIT_SYMBOLS, formatPiece, parsePiece, pieceName } from "./notation.js";
import { TILE_COLOURS, term, tileNumber, usingTiles } from "./terms.js";

const SVG = "http://www.w3.org/2000/svg";

const MARK_WORDS = {
  hand: "from your hand",
  moved: "moved from another meld",
  joker: "freed joker, declared anew",
};
const MARK_BADGES = { hand: "H", moved: "M", joker: "J" };

export function isRed(suit) {
  return suit === "h" || suit === "d";
}

/** An inline SVG that draws the symbol #id (a suit, or the joker's star). */
export function symbol(id, className = "pip") {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", className);
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const use = document.createElementNS(SVG, "use");
  use.setAttribute("href", `#${id}`);
  svg.append(use);
  return svg;
}

/** A new element with an optional class and text (every view builds its nodes this way). */
export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function span(className, text) {
  return el("span", className, text);
}

/** A Rummikub tile: its number in its colour, a dot of the colour below; jokers show a star and their tile. */
function fillTile(el, piece) {
  el.classList.add("tile");
  if (piece.joker) {
    el.classList.add("joker");
    el.append(symbol("joker-star", "pip star"));
    if (piece.rank) {
      const declared = span(`declared colour-${piece.suit}`, tileNumber(piece.rank));
      declared.title = `stands for ${TILE_COLOURS[piece.suit]} ${tileNumber(piece.rank)}`;
      el.append(declared);
    }
    return;
  }
  el.classList.add(`colour-${piece.suit}`);
  el.append(span("number", tileNumber(piece.rank)), span("dot"));
}

/** The face of a card: rank in the corner, a large suit in the middle; jokers show a star and their card. */
function fillFace(el, piece) {
  el.dataset.card = formatPiece(piece);
  if (usingTiles()) {
    fillTile(el, piece);
    return;
  }
  if (piece.joker) {
    el.classList.add("joker");
    el.append(span("rank", "JKR"), symbol("joker-star", "pip star"));
    if (piece.rank) {
      const declared = span(`declared ${isRed(piece.suit) ? "red" : "black"}`);
      declared.append(span("", piece.rank), symbol(`suit-${piece.suit}`, "pip-small"));
      declared.title = `stands for ${piece.rank}${SUIT_SYMBOLS[piece.suit]}`;
      el.append(declared);
    }
    return;
  }
  el.classList.add(isRed(piece.suit) ? "red" : "black");
  el.append(span("rank", piece.rank), symbol(`suit-${piece.suit}`));
}

function addMark(el, mark) {
  if (!mark) return "";
  el.classList.add(`mark-${mark}`);
  const badge = span("badge", MARK_BADGES[mark]);
  badge.setAttribute("aria-hidden", "true");
  el.append(badge);
  return `, ${term(MARK_WORDS[mark])}`;
}

/** A card to look at: <span role="img"> named for screen readers. */
export function cardView(piece, { mark = null, small = false } = {}) {
  const el = span(small ? "card small" : "card");
  fillFace(el, piece);
  const extra = addMark(el, mark);
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", pieceName(piece) + extra);
  return el;
}

/** A card to press: a real <button> with the given accessible label (a mark, as on a
 * card to look at, adds its badge and its words). */
export function cardButton(piece, label, { small = false, mark = null } = {}) {
  const el = document.createElement("button");
  el.type = "button";
  el.className = small ? "card small" : "card";
  fillFace(el, piece);
  const extra = addMark(el, mark);
  for (const child of el.children) child.setAttribute("aria-hidden", "true");
  el.setAttribute("aria-label", label + extra);
  return el;
}

/** A row of cards (a meld or a hand). */
export function cardRow(pieces, { marks = [], small = false, className = "cards" } = {}) {
  const row = span(className);
  pieces.forEach((piece, index) => row.append(cardView(piece, { mark: marks[index] || null, small })));
  return row;
}

const CARD_TOKEN = /(?<=^|[\s(,])(\*?(?:10|[2-9AJQK])[shdc])(?=$|[\s.,:;)])/g;

/** Text with every card token (Qh, *10h) drawn as a small coloured card name, and its
 * words the game's (the service's moves say "from your hand"; Rummikub's "from your rack"). */
export function richText(text) {
  const fragment = document.createDocumentFragment();
  let last = 0;
  for (const match of text.matchAll(CARD_TOKEN)) {
    fragment.append(term(text.slice(last, match.index)));
    fragment.append(miniCard(parsePiece(match[1])));
    last = match.index + match[1].length;
  }
  fragment.append(term(text.slice(last)));
  return fragment;
}

/** A card name inside a sentence: rank and suit symbol, coloured, read as the notation
 * (a tile: its number in its colour). */
export function miniCard(piece) {
  const tiles = usingTiles();
  const red = piece.rank && isRed(piece.suit);
  const colour = tiles ? (piece.rank ? `colour-${piece.suit}` : "") : red ? "red" : "black";
  const el = span(`mini ${colour}${piece.joker ? " joker" : ""}${tiles ? " mini-tile" : ""}`);
  const visual = span("");
  visual.setAttribute("aria-hidden", "true");
  if (piece.joker) visual.append(symbol("joker-star", "pip-small"));
  if (piece.rank && tiles) visual.append(tileNumber(piece.rank));
  else if (piece.rank) visual.append(piece.rank, symbol(`suit-${piece.suit}`, "pip-small"));
  el.append(visual, span("sr-only", pieceName(piece)));
  el.title = formatPiece(piece);
  return el;
}

/** Several pieces in a sentence, or "none". */
export function miniCards(tokens) {
  const fragment = document.createDocumentFragment();
  if (!tokens.length) {
    fragment.append("none");
    return fragment;
  }
  tokens.forEach((token, index) => {
    if (index) fragment.append(" ");
    fragment.append(miniCard(parsePiece(token)));
  });
  return fragment;
}
