// The bots' turns since the player's last decision, shown as the hint view writes a
// play's steps, one step at a time at a readable pace, skippable.  What a bot drew is
// never shown (the state does not hold it); how many cards its hand holds after the
// turn is.

import { el, richText } from "./cards.js";
import { term } from "./terms.js";

export const PACE_MS = 1200;

const DONE = { play: "played", knock: "knocked", pass: "passed" };

/** "greedy (seat 2) played; 11 cards left." */
function headline(turn) {
  const did = turn.kind === "draw" ? term("drew a card") : DONE[turn.kind] || turn.kind;
  const left = `${turn.cards_after} ${term(turn.cards_after === 1 ? "card" : "cards")} left`;
  return `${turn.name} (seat ${turn.seat + 1}) ${did}; ${left}.`;
}

/** The text of a step (a string, or a move object with its text). */
const stepText = (step) => (typeof step === "string" ? step : step.text || "");

export class BotTurns {
  /** root: the section of the bots' turns (a list and a Skip button inside). */
  constructor(root, { onTurn = () => {} } = {}) {
    this.root = root;
    this.list = root.querySelector(".bot-turn-list");
    this.skipButton = root.querySelector(".bot-skip");
    this.onTurn = onTurn;
    this.skipping = false;
    this.wake = null;
    this.skipButton.addEventListener("click", () => this.skip());
  }

  /** Show turns: stepped (animate, pace ms a step) or all at once.  Resolves when all are shown. */
  async show(turns, { animate = true, pace = PACE_MS } = {}) {
    this.list.replaceChildren();
    this.root.hidden = !turns.length;
    this.skipping = !animate;
    this.skipButton.hidden = !animate || !turns.length;
    this.root.setAttribute("aria-busy", String(animate && turns.length > 0));
    for (const turn of turns) {
      const item = el("li", `bot-turn bot-${turn.kind}`);
      item.dataset.seat = String(turn.seat);
      item.append(el("p", "bot-head", headline(turn)));
      const steps = el("ol", "bot-steps");
      item.append(steps);
      this.list.append(item);
      for (const step of turn.steps || []) {
        const line = el("li", "bot-step");
        line.append(richText(stepText(step)));
        steps.append(line);
        await this.wait(pace);
      }
      this.onTurn(turn);
      if (!(turn.steps || []).length) await this.wait(pace);
    }
    this.skipButton.hidden = true;
    this.root.setAttribute("aria-busy", "false");
  }

  /** Pause between steps, cut short by Skip. */
  wait(ms) {
    if (this.skipping) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /** Show the rest at once. */
  skip() {
    this.skipping = true;
    if (this.wake) this.wake();
    this.wake = null;
  }

  clear() {
    this.skip();
    this.list.replaceChildren();
    this.root.hidden = true;
  }
}
