// The Play tab: a game against the bots.  The new-game form and the games kept in this
// browser (with the import of a logged game) when no game is open; the game at
// /play/<id> (the secret id: whoever holds it plays) or read-only at /replay/<rid>.
// Opening a game pushes its address, so that a reload or a link comes back to it.

import { createGame, importGame, loadGame, loadReplay } from "./play_api.js";
import { NewGameForm } from "./play_form.js";
import { GameView } from "./play_game.js";
import { keepGame, keptGames, renderKept } from "./play_kept.js";

const $ = (id) => document.getElementById(id);

/** What an address opens: {kind: "play", id}, {kind: "replay", id}, {kind: "start"}, or null (not the Play tab's). */
export function playRoute(pathname) {
  const match = /^\/(play|replay)(?:\/([^/]+))?\/?$/.exec(pathname);
  if (!match) return null;
  if (!match[2]) return match[1] === "play" ? { kind: "start" } : null;
  return { kind: match[1], id: decodeURIComponent(match[2]) };
}

export class PlayMode {
  /** parts: askDeclaration, showError(box, error, input), onVariant(name) (the faces may change). */
  constructor({ askDeclaration, showError, onVariant }) {
    this.showError = showError;
    this.onVariant = onVariant;
    this.form = new NewGameForm($("new-game-form"));
    this.game = new GameView({ askDeclaration, showError, onVariant });
    $("new-game-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.create();
    });
    $("game-variant").addEventListener("change", () => this.onVariant(this.variantName()));
    $("import-file").addEventListener("change", (event) => this.importFile(event.target));
    renderKept($("kept-games"));
  }

  active() {
    return $("tab-play").getAttribute("aria-selected") === "true";
  }

  /** The variant whose faces the tab shows: the open game's, or the form's. */
  variantName() {
    return this.game.state ? this.game.state.variant : $("game-variant").value;
  }

  /** The address of the tab as it stands: the open game's, or /play. */
  address() {
    const state = this.game.state;
    if (!state) return "/play";
    return state.id && !state.read_only ? `/play/${encodeURIComponent(state.id)}` : `/replay/${encodeURIComponent(state.replay_id)}`;
  }

  /** Open what an address names (a game, a replay, or the form). */
  async open(route) {
    this.showError($("game-error"), null);
    if (!route || route.kind === "start") {
      this.startView();
      return;
    }
    $("play-start").hidden = true;
    $("game-view").hidden = false;
    $("game-status").textContent = "Loading the game…";
    try {
      const state = route.kind === "replay" ? await loadReplay(route.id) : await loadGame(route.id);
      await this.game.show(state, { source: this.sourceOf(state) });
    } catch (error) {
      // No game to show: the start view (new game, kept games) with the reason, not an
      // empty board whose buttons act on nothing.
      $("game-status").textContent = "";
      this.startView();
      this.showError($("open-error"), error);
    }
  }

  /** Imported games are read-only for acting; the state may say so, the kept list does. */
  sourceOf(state) {
    if (state.source) return state.source;
    const kept = keptGames().find((game) => game.id === state.id);
    return kept && kept.source === "imported" ? "imported" : "played";
  }

  startView() {
    this.showError($("open-error"), null);
    this.game.hide();
    $("play-start").hidden = false;
    renderKept($("kept-games"));
    this.onVariant(this.variantName());
  }

  /** Go to an address of the tab (a history entry) and open it. */
  go(path, state, options) {
    window.history.pushState(null, "", path);
    $("play-start").hidden = true;
    return this.game.show(state, options);
  }

  async create() {
    const button = $("new-game");
    this.showError($("new-game-error"), null, $("game-seed"));
    let body;
    try {
      body = this.form.body();
    } catch (error) {
      this.showError($("new-game-error"), error, $("game-seed"));
      $("game-seed").focus();
      return;
    }
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
    try {
      const created = await createGame(body);
      keepGame({
        id: created.id, replay_id: created.replay_id, variant: body.variant, opponents: body.opponents,
        created: new Date().toISOString(), source: "played",
      });
      await this.go(`/play/${encodeURIComponent(created.id)}`, created.state, { animate: true, opponents: body.opponents });
    } catch (error) {
      this.showError($("new-game-error"), error);
    } finally {
      button.disabled = false;
      button.removeAttribute("aria-busy");
    }
  }

  async importFile(input) {
    const file = input.files && input.files[0];
    if (!file) return;
    this.showError($("import-error"), null);
    try {
      const created = await importGame(await file.text());
      const state = created.state;
      const opponents = state.players.filter((player) => player.seat !== state.seat).map((player) => player.name);
      keepGame({
        id: created.id, replay_id: created.replay_id, variant: state.variant, opponents,
        created: new Date().toISOString(), source: "imported",
      });
      await this.go(`/play/${encodeURIComponent(created.id)}`, state, { source: "imported" });
    } catch (error) {
      this.showError($("import-error"), error);
    } finally {
      input.value = "";
    }
  }

  /** Draw again (the faces changed). */
  redraw() {
    this.game.redraw();
  }
}
