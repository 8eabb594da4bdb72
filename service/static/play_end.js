// The players and their scores: each hand's size and running total, the scoring at the
// end of a round (each hand left, its points, the totals) and the winners of the game.

import { el, miniCards } from "./cards.js";
import { term } from "./terms.js";

/** Why a round ended, in words (solver.game.scoring.EndReason); who, when the state says. */
function reasonWords(end, state) {
  const who = (seat) => {
    const player = state.players.find((p) => p.seat === seat);
    return player ? playerName(player, state) : `seat ${seat + 1}`;
  };
  if (end.reason === "out") return end.out === undefined || end.out === null ? "a player went out" : `${who(end.out)} went out`;
  if (end.reason === "knock") return end.knocker === undefined || end.knocker === null ? "a player knocked" : `${who(end.knocker)} knocked`;
  if (end.reason === "exhausted") return "the stock ran out and every final turn was played";
  if (end.reason === "blocked") return "no one could play any more";
  return end.reason;
}

/** A player's name as the page says it: "You" for the player's own seat ("The player" in a replay). */
export function playerName(player, state) {
  if (player.seat === state.seat) return state.read_only ? "The player" : "You";
  return `${player.name} (seat ${player.seat + 1})`;
}

/** The players: name, cards in hand, running total; the one to move marked. */
export function renderPlayers(list, state) {
  list.replaceChildren(...state.players.map((player) => {
    const item = el("li", "player");
    item.dataset.seat = String(player.seat);
    if (player.seat === state.to_move && !state.over) item.setAttribute("aria-current", "true");
    const count = el("span", "player-cards", `${player.cards} ${term(player.cards === 1 ? "card" : "cards")}`);
    // Once the game is over, its final score (the end-of-game bonuses in): the winner's.
    const final = state.result && state.result.final ? state.result.final[player.seat] : undefined;
    const total = final ?? player.total;
    item.append(el("span", "player-name", playerName(player, state)), " ", count, " ",
      el("span", "player-total", `${total} points`));
    return item;
  }));
}

/** A bot turn changed a hand's size: its line says so before the state is drawn again. */
export function showCount(list, seat, cards) {
  const count = list.querySelector(`.player[data-seat="${seat}"] .player-cards`);
  if (count) count.textContent = `${cards} ${term(cards === 1 ? "card" : "cards")}`;
}

/** A table of one row per player; columns: [heading, className, cell(index) -> text or node]. */
function scoreTable(state, columns) {
  const table = el("table", "scores");
  const head = el("tr");
  head.append(el("th", "", "Player"), ...columns.map(([name]) => el("th", "", name)));
  table.append(el("thead"), el("tbody"));
  table.tHead.append(head);
  state.players.forEach((player, index) => {
    const row = el("tr");
    row.dataset.seat = String(player.seat);
    row.append(el("th", "", playerName(player, state)));
    for (const [, className, cell] of columns) {
      const td = el("td", className);
      td.append(cell(index));
      row.append(td);
    }
    table.tBodies[0].append(row);
  });
  return table;
}

/** The scoring of the round that ended since the player's last decision. */
export function renderRoundEnd(root, state) {
  const end = state.round_end;
  root.hidden = !end;
  if (!end) return;
  const heading = el("h3", "", `Round ${end.round} is over`);
  heading.id = "round-end-heading";
  const why = reasonWords(end, state);
  const cell = (list, index) => String((list || [])[index] ?? "");
  const columns = [
    [term("Hand left"), "score-hand", (index) => miniCards((end.hands || [])[index] || [])],
    ["Points left", "score-points", (index) => cell(end.points, index)],
  ];
  if (end.scores) columns.push(["Round score", "score-round", (index) => cell(end.scores, index)]);
  columns.push(["Total", "score-total", (index) => cell(end.totals, index)]);
  root.replaceChildren(heading, el("p", "", why ? `The round ended: ${why}.` : "The round ended."),
    scoreTable(state, columns));
}

/** The game's end: who won, and the final totals. */
export function renderResult(root, state) {
  const result = state.result;
  root.hidden = !result;
  if (!result) return;
  const name = (winner) => {
    const player = typeof winner === "number" ? state.players[winner] : state.players.find((p) => p.name === winner);
    return player ? playerName(player, state) : String(winner);
  };
  const winners = (result.winners || []).map(name);
  const heading = el("h3", "", "The game is over");
  heading.id = "result-heading";
  const youWon = winners.includes("You");
  const words = !winners.length ? "No winner." : youWon && winners.length === 1 ? "You win!"
    : `${winners.join(" and ")} win${winners.length === 1 && !youWon ? "s" : ""}.`;
  const line = el("p", "result-winners", words);
  line.id = "result-winners";
  // The rounds' sum, the end-of-game bonuses (100 for reaching the target, 25 a round won)
  // and the final score the winner is named by: the rounds' sum alone could show the
  // winner behind (139 against 152, then 339 against 252 with the bonuses).
  const at = (list, index) => String((list || [])[index] ?? "");
  const columns = [["Rounds", "score-rounds", (index) => at(result.totals, index)]];
  if ((result.bonuses || []).some((bonus) => bonus)) {
    columns.push(["Bonuses", "score-bonus", (index) => at(result.bonuses, index)]);
  }
  columns.push(["Final score", "score-total", (index) => at(result.final || result.totals, index)]);
  root.replaceChildren(heading, line, scoreTable(state, columns));
}
