// The games API (/v1/games...) as the Play tab calls it: one function per endpoint, so
// the views never spell a path.  Errors are thrown as api.js's ApiError.

import { get, post, postText } from "./api.js";

const game = (id) => `/v1/games/${encodeURIComponent(id)}`;

/** POST /v1/games: {variant, players, opponents, seed} -> {id, replay_id, state}. */
export const createGame = (body) => post("/v1/games", body);

/** GET /v1/games/{id}: the game as its player sees it. */
export const loadGame = (id) => get(game(id));

/** GET /v1/replays/{rid}: the game read-only (no id, cannot act). */
export const loadReplay = (replayId) => get(`/v1/replays/${encodeURIComponent(replayId)}`);

/** POST /v1/games/{id}/act: the player's action at the given turn counter -> the next state. */
export const act = (id, turn, action) => post(`${game(id)}/act`, { turn, action });

/** POST /v1/games/{id}/help: graded help (level 1, 2 or 3), recorded in the game. */
export const askHelp = (id, turn, level) => post(`${game(id)}/help`, { turn, level });

/** POST /v1/games/{id}/advise: every option of the turn ranked, recorded in the game. */
export const askAdvice = (id, turn) => post(`${game(id)}/advise`, { turn });

/** GET /v1/games/{id}/review: the review of the player's decisions (the game is over). */
export const loadReview = (id) => get(`${game(id)}/review`);

/** Where the game's JSON lines log is downloaded from. */
export const exportPath = (id) => `${game(id)}/export`;

/** POST /v1/games/import: an exported log's text -> {id, replay_id, state}. */
export const importGame = (text) => postText("/v1/games/import", text, "application/x-ndjson");
