// Puzzle mode: fetch a puzzle of a chosen difficulty, build an answer by moving cards
// (or by editing its notation), check it with /v1/check, and reveal the solution.
//
// The answer is a table: the puzzle's melds to begin with.  Select a card (of the
// answer or of the hand), then press "Move here" on a meld, or "New meld".  A hand
// joker asks for its card when it lands in a meld.

import { post } from "./api.js";
import { cardButton, cardView, el } from "./cards.js";
import { renderHint } from "./hint.js";
import {
  deckKey, formatPiece, formatTable, parseHand, parseTable, pieceName, pieceText, suggestDeclaration,
} from "./notation.js";
import { term } from "./terms.js";

/** Pieces of `all` left after taking out one copy per piece of `used` (compared by notation). */
function minus(all, used) {
  const left = [...all];
  for (const piece of used) {
    const at = left.findIndex((candidate) => deckKey(candidate) === deckKey(piece)
      && (candidate.joker || formatPiece(candidate) === formatPiece(piece)));
    if (at >= 0) left.splice(at, 1);
  }
  return left;
}

/** The first puzzle of a /v1/puzzles answer, whatever its envelope. */
function firstPuzzle(data) {
  if (data && Array.isArray(data.puzzles)) return data.puzzles[0];
  return data && data.puzzle ? data.puzzle : data;
}

export class PuzzleMode {
  constructor({ form, difficulty, variant, view, error, askDeclaration, showError, rulesOf = () => ({}) }) {
    this.rulesOf = rulesOf;
    this.view = view;
    this.variant = variant;
    this.error = error;
    this.difficulty = difficulty;
    this.askDeclaration = askDeclaration;
    this.showError = showError;
    this.puzzle = null;
    this.melds = [];
    this.hand = [];
    this.selected = null;
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.fetch(form.querySelector("button[type=submit]"));
    });
  }

  async fetch(button) {
    this.showError(this.error, null);
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
    const status = this.view.ownerDocument.getElementById("puzzle-status");
    status.textContent = "Finding a puzzle…";
    try {
      const data = await post("/v1/puzzles", this.request());
      this.start(firstPuzzle(data), data.seed);
      status.textContent = term(`A new ${this.puzzle.difficulty} puzzle: play every card of your hand.`);
    } catch (error) {
      status.textContent = "";
      this.showError(this.error, error);
    } finally {
      button.disabled = false;
      button.removeAttribute("aria-busy");
    }
  }

  /** The body of POST /v1/puzzles: one puzzle of the chosen difficulty (?seed=N in the page's address fixes it). */
  request() {
    const body = { difficulty: this.difficulty.value, variant: this.variant.value, count: 1 };
    const seed = new URLSearchParams(window.location.search).get("seed");
    if (seed && /^\d+$/.test(seed)) body.seed = Number(seed);
    return body;
  }

  start(puzzle, seed) {
    this.puzzle = puzzle;
    this.seed = seed;
    // A new puzzle starts with its solution hidden (the last one's stayed on screen).
    this.view.querySelector("#puzzle-solution").hidden = true;
    this.table = parseTable(puzzle.table);
    this.startHand = puzzle.hand.map((token) => parseHand(token)[0]);
    this.reset();
  }

  reset() {
    this.melds = this.table.map((meld) => [...meld]);
    this.hand = [...this.startHand];
    this.selected = null;
    this.render();
    this.clearVerdict();
  }

  notation() {
    return formatTable(this.melds);
  }

  /** The answer typed as notation: the melds as written, the hand what they do not use. */
  setNotation(text) {
    const melds = parseTable(text);
    const added = minus(melds.flat(), this.table.flat());
    this.melds = melds;
    this.hand = minus(this.startHand, added);
    this.selected = null;
    this.render({ keepField: true });
  }

  select(where, index) {
    const same = this.selected && this.selected.where === where && this.selected.index === index;
    this.selected = same ? null : { where, index };
    this.render();
    const again = this.view.querySelector(`[data-where="${where}"] .cards > button:nth-child(${index + 1})`);
    if (again) again.focus();
  }

  takeSelected() {
    const { where, index } = this.selected;
    const source = where === "hand" ? this.hand : this.melds[where];
    const [piece] = source.splice(index, 1);
    this.selected = null;
    return piece;
  }

  async moveTo(target) {
    if (!this.selected) return;
    const { where, index } = this.selected;
    let piece = (where === "hand" ? this.hand : this.melds[where])[index];
    if (piece.joker && !piece.rank && target !== "hand") {
      const meld = target === "new" ? [] : this.melds[target];
      const declared = await this.askDeclaration(suggestDeclaration(meld));
      if (!declared) return;
      piece = { joker: true, ...declared };
    } else if (piece.joker && target === "hand") {
      piece = { joker: true };
    }
    this.takeSelected();
    if (target === "hand") this.hand.push(piece);
    else if (target === "new") this.melds.push([piece]);
    else this.melds[target].push(piece);
    this.melds = this.melds.filter((meld) => meld.length);
    this.render();
    this.clearVerdict();
  }

  clearVerdict() {
    const verdict = this.view.querySelector("#puzzle-verdict");
    verdict.replaceChildren();
    verdict.className = "verdict";
  }

  async check(button) {
    const verdict = this.view.querySelector("#puzzle-verdict");
    this.showError(this.error, null);
    this.clearVerdict();
    button.disabled = true;
    try {
      const result = await post("/v1/check", {
        position: this.puzzle.position, after: this.notation(), variant: this.puzzle.variant,
      });
      if (result.ok && !this.hand.length) {
        verdict.className = "verdict ok";
        verdict.append(el("strong", "", "Solved!"), term(" Every card of your hand is on the table, legally."));
      } else if (result.ok) {
        verdict.className = "verdict partial";
        const left = this.hand.map((piece) => pieceText(formatPiece(piece))).join(" ");
        verdict.append(el("strong", "", "Legal, but not solved."),
          term(` Still in your hand: ${left}. The puzzle asks you to play them all.`));
      } else {
        verdict.className = "verdict wrong";
        verdict.append(el("strong", "", "Not legal yet:"));
        const list = el("ul", "reasons");
        for (const reason of result.reasons) list.append(el("li", "", term(reason)));
        verdict.append(list);
      }
    } catch (error) {
      this.showError(this.error, error);
    } finally {
      button.disabled = false;
    }
  }

  /** Draw the puzzle again (the page switched between cards and tiles), the solution too if shown. */
  redraw() {
    if (!this.puzzle) return;
    this.render({ keepField: true });
    if (!this.view.querySelector("#puzzle-solution").hidden) this.reveal({ focus: false });
  }

  reveal({ focus = true } = {}) {
    const box = this.view.querySelector("#puzzle-solution");
    const solution = this.puzzle.solution;
    const hint = {
      status: "optimal",
      position: this.puzzle.position,
      played: this.puzzle.hand,
      table: solution.table,
      melds: solution.melds,
      hand: [],
      hand_points: 0,
      can_knock: true,
      goes_out: true,
      moves: solution.moves,
      rearrangements: solution.rearrangements,
    };
    box.hidden = false;
    const body = box.querySelector(".solution-body");
    renderHint(body, hint, this.rulesOf(this.puzzle.variant));
    const heading = body.querySelector("h2");
    heading.textContent = "Solution";
    heading.tabIndex = -1;
    box.querySelector("#solution-notation").textContent = solution.table;
    if (focus) heading.focus();
  }

  // --- rendering -----------------------------------------------------------------------

  render({ keepField = false } = {}) {
    const puzzle = this.puzzle;
    if (!puzzle) return;
    this.view.hidden = false;
    const intro = this.view.querySelector("#puzzle-intro");
    intro.textContent = term("Play your whole hand: rearrange the table as you need.")
      + ` Difficulty ${puzzle.difficulty} `
      + `(score ${puzzle.score})${this.seed === undefined ? "" : `, seed ${this.seed}`}.`;
    const start = this.view.querySelector("#puzzle-table");
    start.replaceChildren(...this.table.map((meld, index) => {
      const row = el("div", "meld");
      row.dataset.meld = String(index + 1);
      const cards = el("span", "cards");
      cards.append(...meld.map((piece) => cardView(piece)));
      row.append(el("span", "meld-number", String(index + 1)), cards);
      return row;
    }));
    const startHand = this.view.querySelector("#puzzle-hand");
    startHand.replaceChildren(...this.startHand.map((piece) => cardView(piece)));

    const rows = this.melds.map((meld, index) => this.answerRow(`Meld ${index + 1}`, meld, index));
    rows.push(this.answerRow(term("Hand"), this.hand, "hand"));
    this.view.querySelector("#answer-board").replaceChildren(...rows);
    const newMeld = this.view.querySelector("#answer-new-meld");
    newMeld.disabled = !this.selected;
    const field = this.view.querySelector("#answer-notation");
    if (!keepField) field.value = this.notation();
    const help = this.view.querySelector("#answer-help");
    help.textContent = this.selected
      ? `Selected: ${pieceName(this.selectedPiece())}. Press “Move here” on a meld, or “New meld”.`
      : term("Select a card, then press “Move here” on a meld, or “New meld”.");
  }

  selectedPiece() {
    const { where, index } = this.selected;
    return (where === "hand" ? this.hand : this.melds[where])[index];
  }

  answerRow(title, pieces, where) {
    const row = el("div", "entry-meld answer-meld");
    row.dataset.where = String(where);
    row.append(el("span", "meld-name static", title));
    const cards = el("span", "cards");
    pieces.forEach((piece, index) => {
      const selected = this.selected && this.selected.where === where && this.selected.index === index;
      const button = cardButton(piece, `${pieceName(piece)} in ${title.toLowerCase()}`, { small: true });
      button.setAttribute("aria-pressed", String(Boolean(selected)));
      button.addEventListener("click", () => this.select(where, index));
      cards.append(button);
    });
    if (!pieces.length) cards.append(el("span", "empty", where === "hand" ? "all played" : "empty"));
    const move = el("button", "move-here", "Move here");
    move.type = "button";
    move.disabled = !this.selected || this.selected.where === where;
    move.setAttribute("aria-label", term(`Move the selected card to ${title.toLowerCase()}`));
    move.addEventListener("click", () => this.moveTo(where));
    row.append(cards, move);
    return row;
  }
}
