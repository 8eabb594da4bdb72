// Position entry: the card picker (both decks and the jokers), the target selector
// (the hand or a table meld) and the position drawn as removable cards.
//
// The entry holds the position as melds and a hand of pieces.  It renders itself and
// calls onChange after every click, so the page can write the notation field; the page
// calls setPosition after the user types in that field.

import { cardButton, symbol } from "./cards.js";
import {
  RANKS, SUITS, SUIT_NAMES, deckKey, formatPosition, parsePosition, pieceName, suggestDeclaration,
} from "./notation.js";
import { TILE_COLOURS, term, usingTiles } from "./terms.js";

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "className") node.className = value;
    else if (name === "text") node.textContent = value;
    else node.setAttribute(name, value);
  }
  node.append(...children);
  return node;
}

export class PositionEntry {
  /**
   * @param {object} parts  picker, targets (fieldset body), board elements;
   *   askDeclaration(suggestion) -> Promise of {rank, suit} or null; onChange().
   */
  constructor({ picker, targets, newMeldButton, board, askDeclaration, onChange }) {
    this.picker = picker;
    this.targets = targets;
    this.board = board;
    this.askDeclaration = askDeclaration;
    this.onChange = onChange;
    this.table = [];
    this.hand = [];
    this.target = "hand";
    this.decks = 2;
    this.jokers = 2;
    this.buttons = new Map();
    this.buildPicker();
    newMeldButton.addEventListener("click", () => this.newMeld());
    this.render();
  }

  /** The deck in play: copies of each card and jokers (from /v1/variants). */
  setDeck(decks, jokers) {
    this.decks = decks;
    this.jokers = jokers;
    this.render();
  }

  /** Draw the picker again after the page switched between cards and tiles. */
  redraw() {
    this.grid.remove();
    this.buttons = new Map();
    const focused = this.focusKey;
    this.buildPicker();
    this.focusKey = null;
    this.render();
    if (focused) this.setRovingFocus(focused);
  }

  /** Replace the position (from the notation field); throws NotationError. */
  setPosition(text) {
    const { table, hand } = parsePosition(text);
    this.table = table;
    this.hand = hand;
    if (this.target !== "hand" && this.target >= this.table.length) {
      this.target = this.table.length ? this.table.length - 1 : "hand";
    }
    this.render();
  }

  clear() {
    this.table = [];
    this.hand = [];
    this.target = "hand";
    this.render();
  }

  text() {
    return formatPosition(this.table, this.hand);
  }

  /** How many copies of a card ("7h") or of the joker ("*") are still free. */
  remaining(key) {
    const total = key === "*" ? this.jokers : this.decks;
    let used = 0;
    for (const piece of [...this.table.flat(), ...this.hand]) if (deckKey(piece) === key) used += 1;
    return total - used;
  }

  targetName() {
    return this.target === "hand" ? term("your hand") : `meld ${this.target + 1}`;
  }

  newMeld() {
    const empty = this.table.findIndex((meld) => !meld.length);
    this.target = empty >= 0 ? empty : this.table.push([]) - 1;
    this.render();
    this.focusTarget();
  }

  focusTarget() {
    const radio = this.targets.querySelector(`input[value="${this.target}"]`);
    if (radio) radio.focus();
  }

  async add(key) {
    if (this.remaining(key) <= 0) return;
    let piece;
    if (key === "*") {
      piece = { joker: true };
      if (this.target !== "hand") {
        const declared = await this.askDeclaration(suggestDeclaration(this.table[this.target]));
        if (!declared) return;
        piece = { joker: true, ...declared };
      }
    } else {
      piece = { rank: key.slice(0, -1), suit: key.slice(-1) };
    }
    if (this.target === "hand") this.hand.push(piece);
    else this.table[this.target].push(piece);
    this.changed();
  }

  remove(meldIndex, pieceIndex) {
    if (meldIndex === "hand") {
      this.hand.splice(pieceIndex, 1);
    } else {
      this.table[meldIndex].splice(pieceIndex, 1);
      if (!this.table[meldIndex].length && this.target !== meldIndex) this.dropMeld(meldIndex);
    }
    this.changed();
  }

  dropMeld(index) {
    this.table.splice(index, 1);
    if (this.target !== "hand" && this.target > index) this.target -= 1;
  }

  changed() {
    // An empty meld that is not the target would vanish from the notation anyway.
    for (let index = this.table.length - 1; index >= 0; index -= 1) {
      if (!this.table[index].length && this.target !== index) this.dropMeld(index);
    }
    this.render();
    this.onChange();
  }

  // --- the picker grid: one row per suit, one column per rank, and the joker -----------

  buildPicker() {
    // One row per suit (a colour, for tiles): on a wide screen the rows share one grid of
    // 13 columns; on a phone each row wraps onto a grid of its own with larger cards.
    const grid = el("div", { className: "picker-grid" });
    for (const suit of SUITS) {
      const row = el("div", { className: "picker-row", "data-suit": suit });
      const label = usingTiles()
        ? el("span", { className: `picker-suit colour-${suit}` }, el("span", { className: "swatch" }),
          el("span", { className: "sr-only", text: TILE_COLOURS[suit] }))
        : el("span", { className: `picker-suit ${suit === "h" || suit === "d" ? "red" : "black"}` },
          symbol(`suit-${suit}`, "pip-small"), el("span", { className: "sr-only", text: SUIT_NAMES[suit] }));
      row.append(label);
      for (const rank of RANKS) {
        const key = `${rank}${suit}`;
        const button = cardButton({ rank, suit }, key, { small: true });
        button.append(el("span", { className: "count", "aria-hidden": "true" }));
        this.buttons.set(key, button);
        row.append(button);
      }
      grid.append(row);
    }
    const joker = cardButton({ joker: true }, "joker", { small: true });
    joker.classList.add("picker-joker");
    joker.append(el("span", { className: "count", "aria-hidden": "true" }));
    this.buttons.set("*", joker);
    grid.append(el("div", { className: "picker-row joker-row" }, joker));
    grid.addEventListener("click", (event) => {
      const button = event.target.closest("button");
      if (button && button.dataset.card) {
        this.setRovingFocus(button.dataset.card);
        this.add(button.dataset.card);
      }
    });
    grid.addEventListener("keydown", (event) => this.moveFocus(event));
    this.picker.append(grid);
    this.grid = grid;
    this.picker.setAttribute("aria-label", term("Cards: the decks and the jokers; arrow keys move"));
  }

  /** Arrow keys move between the picker's cards (one tab stop for the whole grid). */
  moveFocus(event) {
    const steps = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
    const keys = [...this.buttons.keys()];
    const current = keys.indexOf(event.target.dataset && event.target.dataset.card);
    if (current < 0) return;
    let index;
    if (event.key in steps) {
      const [rows, cols] = steps[event.key];
      const row = Math.floor(current / 13);
      const col = current % 13;
      if (current === 52) index = rows < 0 ? 39 : cols < 0 ? 51 : 52;
      else if (rows > 0 && row === 3) index = 52;
      else index = Math.min(52, Math.max(0, (row + rows) * 13 + Math.min(12, Math.max(0, col + cols))));
    } else if (event.key === "Home") index = 0;
    else if (event.key === "End") index = 52;
    else return;
    event.preventDefault();
    this.setRovingFocus(keys[index], true);
  }

  setRovingFocus(key, focus = false) {
    for (const [name, button] of this.buttons) button.tabIndex = name === key ? 0 : -1;
    this.focusKey = key;
    if (focus) this.buttons.get(key).focus();
  }

  // --- rendering -----------------------------------------------------------------------

  render() {
    this.renderPicker();
    this.renderTargets();
    this.renderBoard();
  }

  renderPicker() {
    const where = this.targetName();
    for (const [key, button] of this.buttons) {
      const left = this.remaining(key);
      const name = key === "*" ? "a joker" : pieceName({ rank: key.slice(0, -1), suit: key.slice(-1) });
      button.querySelector(".count").textContent = String(Math.max(0, left));
      button.setAttribute("aria-disabled", String(left <= 0));
      button.classList.toggle("over", left < 0);
      const copies = left === 1 ? "1 left" : `${Math.max(0, left)} left`;
      button.setAttribute("aria-label", `Add ${name} to ${where} (${copies})`);
    }
    if (!this.focusKey) this.setRovingFocus("As");
  }

  renderTargets() {
    const options = ["hand", ...this.table.map((_, index) => index)];
    this.targets.replaceChildren(...options.map((value) => {
      const id = `target-${value}`;
      const input = el("input", { type: "radio", name: "target", id, value: String(value) });
      input.checked = value === this.target;
      input.addEventListener("change", () => {
        this.target = value;
        this.render();
        this.focusTarget();
      });
      const text = value === "hand" ? term("Hand") : `Meld ${value + 1}`;
      return el("span", { className: "target" }, input, el("label", { for: id, text }));
    }));
  }

  renderBoard() {
    const rows = [];
    this.table.forEach((meld, meldIndex) => {
      rows.push(this.boardRow(`Meld ${meldIndex + 1}`, meld, meldIndex));
    });
    if (!this.table.length) {
      rows.push(el("p", { className: "empty", text: term("Table: empty. Press “+ New meld”, then pick its cards.") }));
    }
    rows.push(this.boardRow(term("Hand"), this.hand, "hand"));
    this.board.replaceChildren(...rows);
  }

  boardRow(title, pieces, where) {
    const isTarget = where === this.target;
    const row = el("div", { className: `entry-meld${isTarget ? " is-target" : ""}`, "data-where": String(where) });
    const select = el("button", { type: "button", className: "meld-name", text: title });
    select.setAttribute("aria-pressed", String(isTarget));
    select.setAttribute("aria-label", term(`${title}: add the next cards here`));
    select.addEventListener("click", () => {
      this.target = where;
      this.render();
    });
    const cards = el("span", { className: "cards" });
    pieces.forEach((piece, index) => {
      const label = `Remove ${pieceName(piece)} from ${where === "hand" ? term("your hand") : title.toLowerCase()}`;
      const button = cardButton(piece, label, { small: true });
      button.addEventListener("click", () => this.remove(where, index));
      cards.append(button);
    });
    if (!pieces.length) cards.append(el("span", { className: "empty", text: term("no cards yet") }));
    row.append(select, cards);
    return row;
  }
}
