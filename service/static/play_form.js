// The new-game form of the Play tab: the rules, the number of players, one menu per
// opponent (the registry's bots, pimc by default) and an optional seed, read into the
// body of POST /v1/games.

import { el } from "./cards.js";

/** The registry's bots (solver.strategy.registry.BOTS), strongest first; no endpoint lists them. */
export const BOTS = [
  ["pimc", "pimc: the search bot (strongest)"],
  ["expert", "expert: plays well, thinks ahead"],
  ["hoarder", "hoarder: holds melds back"],
  ["greedy", "greedy: plays the most it can"],
  ["random", "random: any legal move"],
];
export const DEFAULT_BOT = "pimc";

/** A local error about one field of the form, in the service's error shape. */
function formError(field, message) {
  const error = new Error(message);
  Object.assign(error, { type: "validation", field, problems: [message] });
  return error;
}

export class NewGameForm {
  /** form: the <form>; its fields are found by id inside it. */
  constructor(form) {
    this.form = form;
    this.variant = form.querySelector("#game-variant");
    this.players = form.querySelector("#game-players");
    this.opponents = form.querySelector("#game-opponents");
    this.seed = form.querySelector("#game-seed");
    this.players.addEventListener("change", () => this.drawOpponents());
    this.drawOpponents();
  }

  /** One menu per opponent, keeping the bots already chosen. */
  drawOpponents() {
    const chosen = [...this.opponents.querySelectorAll("select")].map((select) => select.value);
    const count = Number(this.players.value) - 1;
    const fields = [];
    for (let index = 0; index < count; index += 1) {
      const id = `game-opponent-${index + 1}`;
      const label = el("label", "", `Opponent ${index + 1} (seat ${index + 2})`);
      label.htmlFor = id;
      const select = el("select");
      select.id = id;
      select.append(...BOTS.map(([name, words]) => new Option(words, name)));
      select.value = chosen[index] || DEFAULT_BOT;
      const field = el("div", "option");
      field.append(label, select);
      fields.push(field);
    }
    this.opponents.querySelector(".opponent-fields").replaceChildren(...fields);
  }

  /** The request body; throws a validation error (field "seed") for a seed that is not a whole number. */
  body() {
    const text = this.seed.value.trim();
    // The service's ceiling: the largest whole number a page's numbers hold exactly.
    if (text && (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text)))) {
      throw formError("seed", `The seed is a whole number from 0 to ${Number.MAX_SAFE_INTEGER}, or nothing for a random deal; not '${text}'.`);
    }
    return {
      variant: this.variant.value,
      players: Number(this.players.value),
      opponents: [...this.opponents.querySelectorAll("select")].map((select) => select.value),
      seed: text ? Number(text) : null,
      seat: 0,
    };
  }
}
