// The page: wires the position entry, the hint, the analysis and the puzzles to the API.

import { renderAnalysis } from "./analysis.js";
import { get, post } from "./api.js";
import { renderHint } from "./hint.js";
import { NotationError, RANKS, SUITS, SUIT_NAMES } from "./notation.js";
import { PositionEntry } from "./picker.js";
import { PuzzleMode } from "./puzzle.js";

const EXAMPLE = "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac";
const $ = (id) => document.getElementById(id);

const ERROR_LEADS = {
  notation: "This position cannot be read.",
  position: "This position cannot happen.",
  variant: "These rules cannot be used.",
  validation: "The request is incomplete.",
  busy: "The service is busy: try again in a moment.",
  network: "No connection.",
  limit: "Over a limit of the service.",
};

/** Show an API error (or a local one) in words, in the given box; null clears the box. */
function showError(box, error, input = null) {
  box.replaceChildren();
  box.hidden = !error;
  if (input) input.setAttribute("aria-invalid", String(Boolean(error)));
  if (!error) return;
  const lead = document.createElement("strong");
  lead.textContent = ERROR_LEADS[error.type] || "Something is wrong.";
  const message = document.createElement("span");
  message.className = "error-message";
  // The box sits next to the input at fault: "position: bad card ..." needs no "position: ".
  const text = error.field ? error.message.replace(`${error.field}: `, "") : error.message;
  message.textContent = ` ${text}`;
  box.append(lead, message);
  const problems = (error.problems || []).filter((problem) => problem !== error.message);
  if (problems.length) {
    const list = document.createElement("ul");
    for (const problem of problems) {
      const item = document.createElement("li");
      item.textContent = problem;
      list.append(item);
    }
    box.append(list);
  }
}

// --- the joker dialog: which card does a table joker stand for? ----------------------

function setupJokerDialog() {
  const dialog = $("joker-dialog");
  const rank = $("joker-rank");
  const suit = $("joker-suit");
  rank.append(...RANKS.map((value) => new Option(value, value)));
  suit.append(...SUITS.map((value) => new Option(SUIT_NAMES[value], value)));
  return (suggestion) => new Promise((resolve) => {
    rank.value = suggestion.rank;
    suit.value = suggestion.suit;
    dialog.returnValue = "";
    dialog.addEventListener("close", () => {
      resolve(dialog.returnValue === "ok" ? { rank: rank.value, suit: suit.value } : null);
    }, { once: true });
    dialog.showModal();
    rank.focus();
  });
}

// --- tabs ---------------------------------------------------------------------------------

function setupTabs() {
  const tabs = [...document.querySelectorAll("[role=tab]")];
  function select(tab, focus) {
    for (const other of tabs) {
      const selected = other === tab;
      other.setAttribute("aria-selected", String(selected));
      other.tabIndex = selected ? 0 : -1;
      $(other.getAttribute("aria-controls")).hidden = !selected;
    }
    if (focus) tab.focus();
  }
  tabs.forEach((tab, index) => {
    tab.addEventListener("click", () => select(tab, false));
    tab.addEventListener("keydown", (event) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      if (!step) return;
      event.preventDefault();
      select(tabs[(index + step + tabs.length) % tabs.length], true);
    });
  });
}

/** "Manipulation (2 decks, 2 jokers)" for one entry of /v1/variants. */
function variantOption(item) {
  const jokers = item.jokers ? `, ${item.jokers} joker${item.jokers === 1 ? "" : "s"}` : ", no jokers";
  const decks = `${item.decks} deck${item.decks === 1 ? "" : "s"}`;
  return new Option(`${item.name[0].toUpperCase()}${item.name.slice(1)} (${decks}${jokers})`, item.name);
}

// --- the page -------------------------------------------------------------------------------

async function main() {
  const field = $("notation");
  const entryError = $("entry-error");
  const note = $("notation-note");
  const variant = $("variant");
  const status = $("status");
  const hintView = $("hint-view");
  const analysisView = $("analysis-view");
  const askDeclaration = setupJokerDialog();
  let variants = [];

  const entry = new PositionEntry({
    picker: $("picker"),
    targets: $("targets"),
    newMeldButton: $("new-meld"),
    board: $("entry-board"),
    askDeclaration,
    onChange: () => {
      field.value = entry.text();
      note.textContent = "";
      showError(entryError, null, field);
    },
  });

  /** Field -> picker: the cards follow the notation whenever it can be read. */
  function syncFromField() {
    try {
      entry.setPosition(field.value);
      note.textContent = "";
    } catch (error) {
      if (!(error instanceof NotationError)) throw error;
      note.textContent = `The cards below show the last position that could be read (${error.message}).`;
    }
  }
  let typing = 0;
  field.addEventListener("input", () => {
    clearTimeout(typing);
    typing = setTimeout(syncFromField, 200);
  });

  function useVariant() {
    const chosen = variants.find((item) => item.name === variant.value);
    if (chosen) entry.setDeck(chosen.decks, chosen.jokers);
  }
  variant.addEventListener("change", useVariant);

  function busy(button, words) {
    for (const other of document.querySelectorAll(".entry-actions button")) other.disabled = true;
    button.setAttribute("aria-busy", "true");
    status.textContent = words;
    return () => {
      for (const other of document.querySelectorAll(".entry-actions button")) other.disabled = false;
      button.removeAttribute("aria-busy");
    };
  }

  async function ask(button, path, words, show) {
    clearTimeout(typing);
    syncFromField();
    showError(entryError, null, field);
    const done = busy(button, words);
    try {
      const data = await post(path, { position: field.value, variant: variant.value });
      show(data);
    } catch (error) {
      status.textContent = "";
      hintView.hidden = analysisView.hidden = true;
      showError(entryError, error, field);
      field.focus();
    } finally {
      done();
    }
  }

  $("entry-form").addEventListener("submit", (event) => {
    event.preventDefault();
    ask($("hint-button"), "/v1/hint", "Looking for the best play…", (hint) => {
      analysisView.hidden = true;
      renderHint(hintView, hint);
      hintView.hidden = false;
      $("hint-heading").focus();
      const played = hint.played.length ? `play ${hint.played.join(" ")}` : "no play";
      status.textContent = `Best play: ${played}; ${hint.hand_points} points left; `
        + `${hint.goes_out ? "you go out" : hint.can_knock ? "you can knock" : "you cannot knock"}.`;
    });
  });
  $("analyze-button").addEventListener("click", (event) => {
    ask(event.currentTarget, "/v1/analyze", "Analysing: every possible draw…", (data) => {
      hintView.hidden = true;
      renderAnalysis(analysisView, data);
      analysisView.hidden = false;
      $("analysis-heading").focus();
      status.textContent = `Analysis: ${data.advice === "meld" ? "meld now" : "draw first"}.`;
    });
  });
  $("example-button").addEventListener("click", () => {
    field.value = EXAMPLE;
    entry.setPosition(EXAMPLE);
    showError(entryError, null, field);
    note.textContent = "";
  });
  $("clear-button").addEventListener("click", () => {
    entry.clear();
    field.value = "";
    hintView.hidden = analysisView.hidden = true;
    status.textContent = "";
    showError(entryError, null, field);
  });

  setupTabs();

  const puzzles = new PuzzleMode({
    form: $("puzzle-form"),
    difficulty: $("difficulty"),
    variant: $("puzzle-variant"),
    view: $("puzzle-view"),
    error: $("puzzle-error"),
    askDeclaration,
    showError: (box, error) => showError(box, error, error && error.field === "after" ? $("answer-notation") : null),
  });
  $("puzzle-check").addEventListener("click", (event) => puzzles.check(event.currentTarget));
  $("puzzle-reset").addEventListener("click", () => puzzles.reset());
  $("puzzle-reveal").addEventListener("click", () => puzzles.reveal());
  $("answer-new-meld").addEventListener("click", () => puzzles.moveTo("new"));
  let answerTyping = 0;
  $("answer-notation").addEventListener("input", (event) => {
    clearTimeout(answerTyping);
    answerTyping = setTimeout(() => {
      try {
        puzzles.setNotation(event.target.value);
        $("answer-note").textContent = "";
      } catch (error) {
        if (!(error instanceof NotationError)) throw error;
        $("answer-note").textContent = `The cards follow the field once it reads: ${error.message}.`;
      }
    }, 200);
  });

  try {
    variants = (await get("/v1/variants")).variants;
    for (const select of [variant, $("puzzle-variant")]) select.replaceChildren(...variants.map(variantOption));
    useVariant();
  } catch (error) {
    showError(entryError, error, field);
  }
  document.body.dataset.ready = "true";
}

main();
