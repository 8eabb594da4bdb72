// One game on the page, as its state says (GET /v1/games/{id} or a replay): the
// players and their scores, the bots' turns stepped through, the end of a round and of
// the game with the review, and, when the player is to move, the turn (play_turn_view.js).
// A replay, an imported game or a finished one shows no control that could act.

import { board, handRow } from "./hint.js";
import { parsePiece, pieceText } from "./notation.js";
import { act, exportPath, loadGame, loadReview } from "./play_api.js";
import { BotTurns } from "./play_bots.js";
import { renderPlayers, renderResult, renderRoundEnd, showCount } from "./play_end.js";
import { helpUsedText } from "./play_help.js";
import { gameTitle } from "./play_kept.js";
import { renderReview } from "./play_review.js";
import { TurnView } from "./play_turn_view.js";
import { term } from "./terms.js";

const $ = (id) => document.getElementById(id);
const parseMelds = (melds) => melds.map((meld) => meld.map(parsePiece));

/** The players before the bots' turns are shown: a bot's hand size as the last state
 * said it (when there was one), the others' as they are now. */
function countsBefore(state, previous) {
  const moved = new Set((state.bot_turns || []).map((turn) => turn.seat));
  return state.players.map((player) => {
    const old = previous && previous.players.find((other) => other.seat === player.seat);
    return moved.has(player.seat) && old ? { ...player, cards: old.cards } : player;
  });
}

const STEPS_KEY = "rummy.stepBots";

/** Whether the player wants the bots' turns stepped through (yes, unless they said no). */
function stepsWanted() {
  try {
    return window.localStorage.getItem(STEPS_KEY) !== "no";
  } catch {
    return true;
  }
}

function rememberSteps(wanted) {
  try {
    window.localStorage.setItem(STEPS_KEY, wanted ? "yes" : "no");
  } catch {
    // The choice holds for this page only.
  }
}

/** What tells two states of a game apart for the player, beside the counter. */
const position = (state) => JSON.stringify([state.round, state.table, state.hand, state.can, state.over]);

/** The words for the state: whose move, what the player can do. */
function statusWords(state, readOnly) {
  if (state.over) return typeof state.seed === "number" ? `The game is over (seed ${state.seed}).` : "The game is over.";
  const where = `Round ${state.round}; ${state.stock} ${term(state.stock === 1 ? "card" : "cards")} in the stock.`;
  if (readOnly) return where;
  const can = (state.can || []).join(", ");
  const final = state.final_turn ? " Your final turn: the stock is empty." : "";
  const drawn = (state.drawn || []).length ? ` You drew ${state.drawn.map(pieceText).join(" ")}.` : "";
  return `${where}${drawn} Your move${can ? ` (${can})` : ""}.${final}`;
}

export class GameView {
  /** parts: askDeclaration, showError, onVariant(name) when the faces may change. */
  constructor({ askDeclaration, showError, onVariant }) {
    this.showError = showError;
    this.onVariant = onVariant;
    this.state = null;
    this.source = "played";
    this.bots = new BotTurns($("bot-turns"), { onTurn: (turn) => this.botTurnShown(turn) });
    this.stepping = $("bot-pace");
    this.stepping.checked = stepsWanted();
    this.stepping.addEventListener("change", () => {
      rememberSteps(this.stepping.checked);
      if (!this.stepping.checked) this.bots.skip();
    });
    this.turn = new TurnView({
      askDeclaration,
      showError,
      onAct: (action) => this.act(action),
      onHelpUsed: () => this.reload(),
      onReadOnly: (state) => this.drawLooks(state),
    });
  }

  get readOnly() {
    const state = this.state;
    return Boolean(state && (state.read_only || !state.id || this.source === "imported"));
  }

  /** Show a state; animate: step through its bots' turns (a state just answered). */
  async show(state, { animate = false, source = "played", opponents = null } = {}) {
    const previous = this.state;
    this.state = state;
    this.source = source;
    this.showing = true;  // no redraw meanwhile: what follows draws it all
    this.turn.active = false;
    this.onVariant(state.variant);
    $("game-view").hidden = false;
    this.showError($("game-error"), null);
    const names = opponents || state.players.filter((player) => player.seat !== state.seat).map((p) => p.name);
    $("game-heading").textContent = gameTitle({ variant: state.variant, opponents: names });
    $("replay-link").href = `/replay/${encodeURIComponent(state.replay_id)}`;
    $("export-item").hidden = !state.id || !state.over;  // the log shows every hand: only once it is over
    if (state.id) $("export-link").href = exportPath(state.id);
    $("read-only-note").hidden = !this.readOnly;
    this.stepping.parentElement.hidden = this.readOnly;
    $("round-end").hidden = $("game-result").hidden = $("review-view").hidden = true;
    $("turn-controls").hidden = true;
    const turns = state.bot_turns || [];
    if (animate && turns.length) {
      renderPlayers($("game-players-list"), { ...state, players: countsBefore(state, previous) });
      this.drawHand(state);
      $("game-status").textContent = "The other players are playing…";
    }
    await this.bots.show(turns, { animate: animate && this.stepping.checked });
    if (this.state !== state) return;  // another state came meanwhile
    this.showing = false;
    this.drawState();
  }

  botTurnShown(turn) {
    showCount($("game-players-list"), turn.seat, turn.cards_after);
    if (turn.table) this.drawTable(parseMelds(turn.table));
  }

  drawTable(melds) {
    const table = board(melds, { label: "The table", prefix: "Meld" });
    $("play-table").replaceChildren(...table.childNodes);
  }

  /** The state's table and hand, to look at. */
  drawLooks(state) {
    this.drawTable(parseMelds(state.table));
    this.drawHand(state);
  }

  drawHand(state) {
    const hand = handRow(state.hand.map(parsePiece), [], term("Your hand"));
    $("play-hand").replaceChildren(...hand.childNodes);
  }

  /** Everything the state says, once the bots' turns are shown (the view's data-turn: its counter). */
  drawState() {
    const state = this.state;
    $("game-view").dataset.turn = String(state.turn);
    $("help-used").textContent = helpUsedText(state.help_used);
    renderPlayers($("game-players-list"), state);
    renderRoundEnd($("round-end"), state);
    renderResult($("game-result"), state);
    $("game-status").textContent = statusWords(state, this.readOnly);
    const acting = !this.readOnly && !state.over && (state.can || []).length > 0;
    $("turn-controls").hidden = !acting;
    if (acting) {
      this.turn.start(state);
    } else {
      this.drawLooks(state);
    }
    if (state.over && state.id) this.review();
  }

  /** The player's move: the next state, its bots' turns stepped through.  Errors are
   * thrown to the turn view (a refused play keeps its arrangement); a stale counter or a
   * move out of turn shows the game as it is now, then says why. */
  async act(action) {
    let next;
    try {
      next = await act(this.state.id, this.state.turn, action);
    } catch (error) {
      if (error.status === 409 || error.status === 404) await this.show(await loadGame(this.state.id), { source: this.source });
      throw error;
    }
    this.drawTable(action.type === "play" ? this.turn.draft.tableNow() : parseMelds(this.state.table));
    await this.show(next, { animate: true, source: this.source });
  }

  /** Read the game again after a help: the counter and the help used change, the draft
   * stays; a game that moved on elsewhere is shown as it is now. */
  async reload() {
    const state = await loadGame(this.state.id);
    if (position(state) !== position(this.state)) {
      await this.show(state, { source: this.source });
      return;
    }
    this.state = state;
    $("game-view").dataset.turn = String(state.turn);
    $("help-used").textContent = helpUsedText(state.help_used);
    this.turn.refresh(state);
  }

  async review() {
    const view = $("review-view");
    view.hidden = false;
    view.replaceChildren(document.createTextNode("Reviewing your decisions…"));
    view.setAttribute("aria-busy", "true");
    try {
      renderReview(view, await loadReview(this.state.id));
    } catch (error) {
      view.replaceChildren();
      const box = document.createElement("div");
      box.className = "error";
      view.append(box);
      this.showError(box, error);
    } finally {
      view.setAttribute("aria-busy", "false");
    }
  }

  /** Draw again (the faces changed between cards and tiles). */
  redraw() {
    if (!this.state || this.showing || $("game-view").hidden) return;
    if (!$("turn-controls").hidden && this.turn.draft) this.turn.render();
    else this.drawState();
  }

  hide() {
    this.bots.clear();
    this.state = null;
    $("game-view").hidden = true;
  }
}
