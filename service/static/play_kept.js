// The games kept in this browser (localStorage): each game's variant, opponents, date
// and links; a game can be taken off the list (it stays on the server: whoever holds
// its link can still open it).

import { el } from "./cards.js";

const KEY = "rummy.games";

/** The kept games, newest first ([] when the storage is empty, unreadable or unavailable). */
export function keptGames() {
  try {
    const games = JSON.parse(window.localStorage.getItem(KEY) || "[]");
    return Array.isArray(games) ? games.filter((game) => game && typeof game.id === "string") : [];
  } catch {
    return [];
  }
}

function save(games) {
  try {
    window.localStorage.setItem(KEY, JSON.stringify(games));
  } catch {
    // Private browsing or a full storage: the list is only a convenience.
  }
}

/** Keep a game (again: its entry moves to the top, the newest facts kept). */
export function keepGame(game) {
  save([game, ...keptGames().filter((other) => other.id !== game.id)]);
}

export function forgetGame(id) {
  save(keptGames().filter((game) => game.id !== id));
}

const capitalized = (word) => (word ? word[0].toUpperCase() + word.slice(1) : "");

/** "Rummikub against greedy, expert", for a kept game. */
export function gameTitle(game) {
  const against = game.opponents && game.opponents.length ? ` against ${game.opponents.join(", ")}` : "";
  return `${capitalized(game.variant)}${against}`;
}

/** Draw the list into listEl; onChange() after a game is taken off it. */
export function renderKept(listEl, onChange = () => {}) {
  const games = keptGames();
  if (!games.length) {
    listEl.replaceChildren(el("li", "empty", "No game yet."));
    return;
  }
  listEl.replaceChildren(...games.map((game) => {
    const item = el("li", "kept-game");
    item.dataset.id = game.id;
    const link = el("a", "kept-link", gameTitle(game));
    link.href = `/play/${encodeURIComponent(game.id)}`;
    const when = new Date(game.created);
    const date = el("span", "kept-date", Number.isNaN(when.getTime()) ? "" : when.toLocaleString());
    const imported = game.source === "imported" ? el("span", "kept-source", " (imported)") : "";
    const remove = el("button", "quiet kept-remove", "Remove");
    remove.type = "button";
    remove.setAttribute("aria-label", `Remove ${gameTitle(game)} from this list`);
    remove.addEventListener("click", () => {
      forgetGame(game.id);
      renderKept(listEl, onChange);
      onChange();
    });
    item.append(link, imported, " ", date, " ", remove);
    return item;
  }));
}
