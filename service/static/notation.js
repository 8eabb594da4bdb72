// The project notation in the browser: cards, jokers, melds and positions.
//
// A piece is {rank, suit} for a card, {joker: true} for a hand joker, and
// {joker: true, rank, suit} for a joker declared as that card.  The server remains the
// judge of what is legal; this module only reads and writes the notation so that the
// card picker and the text field stay in sync.

import { TILE_COLOURS, TILE_LETTERS, tileNumber, usingTiles } from "./terms.js";

export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
export const SUITS = ["s", "h", "d", "c"];
export const SUIT_NAMES = { s: "spades", h: "hearts", d: "diamonds", c: "clubs" };
export const SUIT_SYMBOLS = { s: "♠", h: "♥", d: "♦", c: "♣" };
export const RANK_NAMES = {
  A: "Ace", J: "Jack", Q: "Queen", K: "King",
};

const SYMBOL_SUITS = { "♠": "s", "♥": "h", "♦": "d", "♣": "c" };
/** A tile colour's letter -> the notation's suit letter (``TILE_LETTERS`` the other way). */
const TILE_SUITS = Object.fromEntries(Object.entries(TILE_LETTERS).map(([suit, letter]) => [letter, suit]));
const TILE_NOTATION = "its colour (k black, r red, b blue, o orange) and its number 1-13, e.g. k13 or r1";
const NUMBER_RANKS = { 1: "A", 11: "J", 12: "Q", 13: "K" };

/** An error in the notation, with the one-line reason. */
export class NotationError extends Error {}

/** Read one rank token (A 2..10 J Q K, T for 10, 1..13), or throw. */
function parseRank(text, token) {
  const upper = text.toUpperCase();
  if (upper === "T") return "10";
  if (RANKS.includes(upper)) return upper;
  if (/^\d+$/.test(upper)) {
    const value = Number(upper);
    if (value >= 1 && value <= 13) return NUMBER_RANKS[value] || String(value);
  }
  throw new NotationError(`bad card '${token}': unknown rank '${text}'`);
}

/** Read a card such as 7h, 10s, Qd, T♠ (no joker). */
export function parseCard(token) {
  const separator = [...token].find((char) => ",;/".includes(char));
  if (separator) {  // "10h," would be blamed on its rank "10h"
    throw new NotationError(
      `bad card '${token}': '${separator}' is not part of a card: separate cards with spaces and melds with '|'`);
  }
  const tile = /^([krbo])(1[0-3]|[1-9])$/i.exec(token);
  if (tile) {  // a Rummikub tile as the page and the commands print it: k13, r1, b12, o7
    return { rank: NUMBER_RANKS[Number(tile[2])] || tile[2], suit: TILE_SUITS[tile[1].toLowerCase()] };
  }
  if (/^[krbo]\d+$/i.test(token)) throw new NotationError(`bad card '${token}': a tile is ${TILE_NOTATION}`);
  const suitText = token.slice(-1);
  const suit = SYMBOL_SUITS[suitText] || suitText.toLowerCase();
  if (!SUITS.includes(suit)) {
    throw new NotationError(`bad card '${token}': unknown suit '${suitText}'`);
  }
  return { rank: parseRank(token.slice(0, -1), token), suit };
}

/** Read a piece: a card, '*' (a hand joker) or '*7h' (a joker declared as 7h); ★ for *. */
export function parsePiece(token) {
  if (token === "*" || token === "★") return { joker: true };
  if (token.startsWith("*") || token.startsWith("★")) return { joker: true, ...parseCard(token.slice(1)) };
  return parseCard(token);
}

/** A piece in notation as the page shows it in text: "Q♥", "★Q♥", "★"; tiles "r12", "★r12". */
export function pieceText(notation) {
  const piece = parsePiece(notation);
  const star = piece.joker ? "★" : "";
  if (!piece.rank) return star;
  if (usingTiles()) return `${star}${TILE_LETTERS[piece.suit]}${tileNumber(piece.rank)}`;
  return `${star}${piece.rank}${SUIT_SYMBOLS[piece.suit]}`;
}

/** The canonical text of a piece: 7h, 10s, *, *7h. */
export function formatPiece(piece) {
  if (piece.joker) return piece.rank ? `*${piece.rank}${piece.suit}` : "*";
  return `${piece.rank}${piece.suit}`;
}

/** Words for screen readers: "Queen of hearts", "joker as 7 of hearts"; tiles: "red 12". */
export function pieceName(piece) {
  const card = usingTiles()
    ? (p) => `${TILE_COLOURS[p.suit]} ${tileNumber(p.rank)}`
    : (p) => `${RANK_NAMES[p.rank] || p.rank} of ${SUIT_NAMES[p.suit]}`;
  if (piece.joker) return piece.rank ? `joker as ${card(piece)}` : "joker";
  return card(piece);
}

/** The card a piece counts as in the deck: the card itself, or "*" for any joker. */
export function deckKey(piece) {
  return piece.joker ? "*" : formatPiece(piece);
}

function splitPieces(text) {
  return text.trim().split(/\s+/).filter(Boolean);
}

/** Read a table: melds separated by '|'.  Returns a list of lists of pieces. */
export function parseTable(text) {
  if (!text.trim()) return [];
  return text.split("|").map((meldText, index) => {
    const tokens = splitPieces(meldText);
    if (!tokens.length) throw new NotationError(`meld ${index + 1} of the table is empty (two '|' in a row?)`);
    return tokens.map(parsePiece);
  });
}

/** Read a hand: pieces separated by spaces. */
export function parseHand(text) {
  return splitPieces(text).map(parsePiece);
}

/** Read 'table / hand'.  Without a '/', everything is taken as the table (still being typed). */
export function parsePosition(text) {
  const parts = text.split("/");
  if (parts.length > 2) {
    throw new NotationError(`a position is 'table / hand' with exactly one '/', found ${parts.length - 1}`);
  }
  return { table: parseTable(parts[0]), hand: parts.length === 2 ? parseHand(parts[1]) : [] };
}

export function formatMeld(meld) {
  return meld.map(formatPiece).join(" ");
}

export function formatTable(melds) {
  return melds.filter((meld) => meld.length).map(formatMeld).join(" | ");
}

/** 'table / hand', with an empty side written as nothing: '/ Ac', 'Kh Kd Kc /'. */
export function formatPosition(table, hand) {
  return [formatTable(table), "/", hand.map(formatPiece).join(" ")].filter(Boolean).join(" ");
}

/** Splits a position string at its '/' without reading the cards: [table, hand]. */
export function splitPosition(text) {
  const at = text.indexOf("/");
  return at < 0 ? [text, ""] : [text.slice(0, at), text.slice(at + 1)];
}

/** A card that would fit at the end of a meld: the next rank of a sequence, or a missing suit of a group. */
export function suggestDeclaration(meld) {
  const cards = meld.filter((piece) => piece.rank);
  if (!cards.length) return { rank: "A", suit: "s" };
  const ranks = new Set(cards.map((card) => card.rank));
  if (ranks.size === 1) {
    const used = new Set(cards.map((card) => card.suit));
    const suit = SUITS.find((s) => !used.has(s)) || cards[0].suit;
    return { rank: cards[0].rank, suit };
  }
  const last = cards[cards.length - 1];
  const index = RANKS.indexOf(last.rank);
  return { rank: RANKS[(index + 1) % RANKS.length], suit: last.suit };
}
