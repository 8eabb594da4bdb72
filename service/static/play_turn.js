// The player's turn being arranged: the table's melds and the hand, as the player moves
// pieces about before pressing Play.  No drawing here (play_board.js draws it), no
// rules either: the referee on the server judges the play; this only keeps what the
// player did, so that it can be undone, reset, and written as the table's notation.
//
// Each piece is an item {key, piece, origin, home}: origin "hand" or "table" (a table
// piece never goes back to the hand), home the id of the meld it started in (a table
// piece in another meld is marked as moved).  Melds are {id, items}.

import { deckKey, formatPiece, formatTable, parseTable, suggestDeclaration } from "./notation.js";

let nextKey = 1;

function item(piece, origin, home = null) {
  nextKey += 1;
  return { key: nextKey, piece: { ...piece }, origin, home };
}

export class TurnDraft {
  /** table: melds of pieces; hand: pieces (both parsed from the game's state). */
  constructor(table, hand) {
    this.nextMeld = 0;
    this.start = {
      melds: table.map((meld) => {
        this.nextMeld += 1;
        const id = this.nextMeld;
        return { id, items: meld.map((piece) => item(piece, "table", id)) };
      }),
      hand: hand.map((piece) => item(piece, "hand")),
    };
    this.reset();
  }

  /** Back to the table and the hand of the turn's start; the undo stack is emptied. */
  reset() {
    this.melds = structuredClone(this.start.melds);
    this.hand = structuredClone(this.start.hand);
    this.selected = [];
    this.history = [];
  }

  snapshot() {
    return { melds: structuredClone(this.melds), hand: structuredClone(this.hand), nextMeld: this.nextMeld };
  }

  /** Keep the arrangement before a change, for Undo. */
  remember() {
    this.history.push(this.snapshot());
  }

  canUndo() {
    return this.history.length > 0;
  }

  undo() {
    const last = this.history.pop();
    if (!last) return;
    Object.assign(this, last);
    this.selected = [];
  }

  /** Has anything moved since the turn's start? */
  changed() {
    return formatTable(this.tableNow()) !== formatTable(this.start.melds.map((meld) => meld.items.map((x) => x.piece)))
      || this.hand.length !== this.start.hand.length;
  }

  /** The table as melds of pieces, and its notation (what Play sends). */
  tableNow() {
    return this.melds.map((meld) => meld.items.map((entry) => entry.piece));
  }

  tableText() {
    return formatTable(this.tableNow());
  }

  /** Where a piece is: {meld: index or "hand", at: index}, or null. */
  find(key) {
    const at = this.hand.findIndex((entry) => entry.key === key);
    if (at >= 0) return { meld: "hand", at, entry: this.hand[at] };
    for (const [index, meld] of this.melds.entries()) {
      const found = meld.items.findIndex((entry) => entry.key === key);
      if (found >= 0) return { meld: index, at: found, entry: meld.items[found] };
    }
    return null;
  }

  isSelected(key) {
    return this.selected.includes(key);
  }

  toggle(key) {
    this.selected = this.isSelected(key) ? this.selected.filter((other) => other !== key) : [...this.selected, key];
  }

  clearSelection() {
    this.selected = [];
  }

  selectedEntries() {
    return this.selected.map((key) => this.find(key)).filter(Boolean).map((found) => found.entry);
  }

  /** Why the selection cannot go to target ("hand", "new" or a meld index), or "" when it can. */
  refusal(target) {
    const chosen = this.selected.map((key) => this.find(key)).filter(Boolean);
    if (!chosen.length) return "nothing selected";
    if (target === "hand" && chosen.some((found) => found.entry.origin === "table")) {
      return "a card from the table never goes back to a hand";
    }
    if (chosen.every((found) => found.meld === target)) return "already there";
    return "";
  }

  /**
   * Move the selection to target, in the order it was selected.  A hand joker landing in
   * a meld asks for its card (askDeclaration(suggestion) -> {rank, suit} or null: null
   * cancels the whole move); a hand joker going back to the hand forgets its card.
   * Returns true when something moved.
   */
  async moveTo(target, askDeclaration) {
    if (this.refusal(target)) return false;
    const entries = this.selectedEntries().filter((entry) => this.find(entry.key).meld !== target);
    const landing = target === "hand" || target === "new" ? [] : this.melds[target].items.map((x) => x.piece);
    const pieces = new Map();
    for (const entry of entries) {
      let piece = entry.piece;
      if (target === "hand") piece = piece.joker ? { joker: true } : piece;
      else if (piece.joker && !piece.rank) {
        const declared = await askDeclaration(suggestDeclaration(landing));
        if (!declared) return false;
        piece = { joker: true, ...declared };
      }
      landing.push(piece);
      pieces.set(entry.key, piece);
    }
    this.remember();
    const moved = entries.map((entry) => this.take(entry.key));
    for (const entry of moved) entry.piece = pieces.get(entry.key);
    this.put(moved, target);
    this.selected = [];
    return true;
  }

  /** Take a piece out of where it is (an emptied meld stays until put() tidies up). */
  take(key) {
    const found = this.find(key);
    const from = found.meld === "hand" ? this.hand : this.melds[found.meld].items;
    return from.splice(found.at, 1)[0];
  }

  put(entries, target) {
    if (target === "hand") this.hand.push(...entries);
    else if (target === "new") {
      this.nextMeld += 1;
      this.melds.push({ id: this.nextMeld, items: entries });
    } else this.melds[target].items.push(...entries);
    this.melds = this.melds.filter((meld) => meld.items.length);
  }

  /** The one selected piece when it is a joker on the table (it can be declared anew). */
  selectedTableJoker() {
    if (this.selected.length !== 1) return null;
    const found = this.find(this.selected[0]);
    return found && found.meld !== "hand" && found.entry.piece.joker ? found : null;
  }

  /** Declare the selected table joker anew (a freed joker takes a new card). */
  async redeclare(askDeclaration) {
    const found = this.selectedTableJoker();
    if (!found) return false;
    const declared = await askDeclaration({ rank: found.entry.piece.rank, suit: found.entry.piece.suit });
    if (!declared) return false;
    this.remember();
    this.find(found.entry.key).entry.piece = { joker: true, ...declared };
    this.selected = [];
    return true;
  }

  /**
   * Arrange the table as the notation says (a shown play, from the help): the hand
   * keeps what the new table does not take from it.  Throws NotationError.
   */
  arrange(text) {
    const melds = parseTable(text);
    const pool = [...this.start.melds.flatMap((meld) => meld.items), ...this.start.hand].map((x) => ({ ...x }));
    const claim = (piece) => {
      const same = (x) => deckKey(x.piece) === deckKey(piece) && (piece.joker || formatPiece(x.piece) === formatPiece(piece));
      let at = pool.findIndex((x) => x.origin === "table" && same(x));
      if (at < 0) at = pool.findIndex(same);
      const entry = at >= 0 ? pool.splice(at, 1)[0] : item(piece, "hand");
      return { ...entry, piece };
    };
    this.remember();
    const taken = new Set();
    this.melds = melds.map((meld) => {
      const items = meld.map(claim);
      return { id: this.meldIdFor(items, taken), items };
    });
    this.hand = pool.filter((x) => x.origin === "hand");
    this.selected = [];
  }

  /** A meld keeps the id of the old meld most of its table pieces come from (so that they
   * are not marked as moved), unless another meld took it first; otherwise a new id. */
  meldIdFor(items, taken) {
    const counts = new Map();
    for (const entry of items) if (entry.origin === "table") counts.set(entry.home, (counts.get(entry.home) || 0) + 1);
    const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1]);
    const home = ranked.length && !taken.has(ranked[0][0]) ? ranked[0][0] : null;
    if (home !== null) {
      taken.add(home);
      return home;
    }
    this.nextMeld += 1;
    return this.nextMeld;
  }

  /** A mark for a piece on the table: "hand" (played from the hand), "moved" (from another meld) or null. */
  markOf(entry, meldId) {
    if (entry.origin === "hand") return "hand";
    return entry.home === meldId ? null : "moved";
  }
}
