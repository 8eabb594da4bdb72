// The player's turn on the page: the draft of the table drawn as cards to press, the
// buttons that arrange it (New meld, Back to hand, the joker, Undo, Reset), the buttons
// of the move (Play, Draw, Knock, Pass, as the state's "can" allows), the graded help
// and the advice.  The game view (play_game.js) sends the move and draws what follows.

import { askAdvice, askHelp } from "./play_api.js";
import { hintedKeys, renderDraft } from "./play_board.js";
import { renderGameAdvice, renderHelp } from "./play_help.js";
import { TurnDraft } from "./play_turn.js";
import { parsePiece, pieceName } from "./notation.js";
import { term } from "./terms.js";

const $ = (id) => document.getElementById(id);
const ACTIONS = ["play", "draw", "knock", "pass"];

export class TurnView {
  /**
   * @param {object} parts  askDeclaration(suggestion); showError(box, error); onAct(action)
   *   -> Promise (rejects with the API's error, the arrangement kept); onHelpUsed() after a
   *   help or advice answer (the game view reads the state again); onReadOnly(state)
   *   draws the table and the hand to look at (a decision with no play: knock or pass).
   */
  constructor({ askDeclaration, showError, onAct, onHelpUsed, onReadOnly }) {
    this.onReadOnly = onReadOnly;
    this.askDeclaration = askDeclaration;
    this.showError = showError;
    this.onAct = onAct;
    this.onHelpUsed = onHelpUsed;
    this.draft = null;
    this.state = null;
    this.hinted = [];
    this.busy = false;
    this.active = false;  // a decision of the player is drawn: false once the game moves on
    this.wire();
  }

  wire() {
    $("turn-new-meld").addEventListener("click", () => this.move("new"));
    $("turn-to-hand").addEventListener("click", () => this.move("hand"));
    $("turn-joker").addEventListener("click", () => this.change(() => this.draft.redeclare(this.askDeclaration)));
    $("turn-undo").addEventListener("click", () => this.change(() => this.draft.undo()));
    $("turn-reset").addEventListener("click", () => this.change(() => this.draft.reset()));
    $("act-play").addEventListener("click", () => this.send({ type: "play", table: this.draft.tableText() }));
    for (const kind of ["draw", "knock", "pass"]) $(`act-${kind}`).addEventListener("click", () => this.send({ type: kind }));
    for (const level of [1, 2, 3]) $(`help-${level}`).addEventListener("click", () => this.help(level));
    $("play-advise").addEventListener("click", () => this.advise());
  }

  /** A new decision of the player: the draft starts from the state's table and hand. */
  start(state) {
    this.active = true;
    this.state = state;
    this.draft = new TurnDraft(state.table.map((meld) => meld.map(parsePiece)), state.hand.map(parsePiece));
    this.hinted = [];
    this.drawn = hintedKeys(this.draft, state.drawn || []);
    $("help-view").hidden = true;
    $("play-advice-view").hidden = true;
    this.showError($("act-error"), null);
    this.render();
  }

  /** The state read again (after a help): the counter and the help used change, the draft
   * stays; an earlier move's error is out of date (it stayed beside the help's answer). */
  refresh(state) {
    this.state = state;
    this.showError($("act-error"), null);
    this.render();
  }

  async change(step) {
    await step();
    this.render();
  }

  /** Move the selection; the keyboard's focus follows the first card moved. */
  async move(target) {
    const first = this.draft.selected[0];
    const moved = await this.draft.moveTo(target, this.askDeclaration);
    if (moved) this.showError($("act-error"), null);
    this.render();
    const card = moved && document.querySelector(`#play-table [data-key="${first}"], #play-hand [data-key="${first}"]`);
    if (card) card.focus();
  }

  select(key) {
    this.draft.toggle(key);
    this.render();
    const again = document.querySelector(`#play-table [data-key="${key}"], #play-hand [data-key="${key}"]`);
    if (again) again.focus();
  }

  render() {
    if (!this.active) return;
    const draft = this.draft;
    const can = new Set(this.state.can || []);
    $("turn-arrange").hidden = !can.has("play");
    if (can.has("play")) {
      renderDraft($("play-table"), $("play-hand"), draft,
        { select: (key) => this.select(key), move: (target) => this.move(target) },
        { hinted: this.hinted, drawn: this.drawn });
    } else {
      this.onReadOnly(this.state);  // a knock decision: the table is only looked at
    }
    const selecting = draft.selected.length > 0;
    $("turn-new-meld").disabled = this.busy || !selecting;
    $("turn-to-hand").disabled = this.busy || !selecting || Boolean(draft.refusal("hand"));
    $("turn-joker").hidden = !draft.selectedTableJoker();
    $("turn-undo").disabled = this.busy || !draft.canUndo();
    $("turn-reset").disabled = this.busy || !draft.canUndo();
    for (const kind of ACTIONS) {
      $(`act-${kind}`).hidden = !can.has(kind) && kind !== "play";
      $(`act-${kind}`).disabled = this.busy || !can.has(kind) || (kind === "play" && !draft.changed());
    }
    const helping = this.busy || !can.has("play");
    for (const id of ["help-1", "help-2", "help-3"]) $(id).disabled = helping;
    $("play-advise").disabled = this.busy;
    $("turn-help").textContent = this.words();
  }

  /** What to do now, in words. */
  words() {
    const chosen = this.draft.selectedEntries();
    if (chosen.length) {
      const names = chosen.map((entry) => pieceName(entry.piece)).join(", ");
      return `Selected: ${names}. Press “Put here” on a meld, or “New meld”${this.draft.refusal("hand") ? "" : term(", or “Back to hand”")}.`;
    }
    if ((this.state.can || []).includes("play")) {
      return term("Select cards (of your hand or of the table), then put them on a meld or on a new meld; press Play when the table is ready.");
    }
    return this.state.phase === "knock" ? "Knock to end the round, or pass." : "Choose your move.";
  }

  setBusy(busy) {
    this.busy = busy;
    this.render();
  }

  async send(action) {
    this.showError($("act-error"), null);
    this.setBusy(true);
    try {
      await this.onAct(action);
    } catch (error) {
      this.showError($("act-error"), error);
      // The status line says what happened now, not an earlier help's "options below".
      $("game-status").textContent = "That move was not made: the reason is under the move buttons.";
      $("act-error").focus?.();
    } finally {
      this.setBusy(false);
    }
  }

  async help(level) {
    const view = $("help-view");
    this.setBusy(true);
    try {
      const answer = await askHelp(this.state.id, this.state.turn, level);
      this.hinted = level >= 2 && answer.exists ? hintedKeys(this.draft, answer.cards || []) : [];
      this.showError($("act-error"), null); // an earlier move's error is out of date beside the answer
      this.render(); // the hand's hinted cards show with the answer, not after the reload
      renderHelp(view, answer, { onApply: (text) => this.apply(text) });
      await this.onHelpUsed();
    } catch (error) {
      this.failed(view, error);
    } finally {
      this.setBusy(false);
    }
  }

  /** A help or an advice that failed: its view says why. */
  failed(view, error) {
    view.hidden = false;
    view.replaceChildren();
    const box = document.createElement("div");
    box.className = "error";
    view.append(box);
    this.showError(box, error);
  }

  /** Put a shown play (level 3) on the table: one step of Undo takes it back. */
  apply(text) {
    this.draft.arrange(text);
    this.hinted = [];
    this.render();
    $("act-play").focus();
  }

  async advise() {
    const view = $("play-advice-view");
    this.setBusy(true);
    $("game-status").textContent = "Weighing every option over sampled deals…";
    try {
      const advice = await askAdvice(this.state.id, this.state.turn);
      this.showError($("act-error"), null); // an earlier move's error is out of date beside the advice
      renderGameAdvice(view, advice);
      $("game-status").textContent = "The options of your turn, best first, are below.";
      await this.onHelpUsed();
    } catch (error) {
      this.failed(view, error);
    } finally {
      this.setBusy(false);
    }
  }
}
