// The page: wires the position entry, the hint, the analysis, the advice and the puzzles to the API.

import { factPlaceholders, renderAdvice } from "./advice.js";
import { renderAnalysis } from "./analysis.js";
import { get, post } from "./api.js";
import { richText } from "./cards.js";
import { renderHint } from "./hint.js";
import { setupJokerDialog } from "./joker.js";
import { NotationError, pieceText } from "./notation.js";
import { PlayMode, playRoute } from "./play.js";
import { PositionEntry } from "./picker.js";
import { PuzzleMode } from "./puzzle.js";
import { term, termFor, usingTiles, useTiles } from "./terms.js";

const EXAMPLE = "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac";
/** Rummikub has no ace-high (K-A is no sequence there): its example plays two tiles into
 * the same three groups, turned into runs (the README's). */
const RUMMIKUB_EXAMPLE = "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / 10h 10d";
const $ = (id) => document.getElementById(id);

const ERROR_LEADS = {
  notation: "This position cannot be read.",
  position: "This position cannot happen.",
  variant: "These rules cannot be used.",
  validation: "A value of the request cannot be used.",
  busy: "The service is busy: try again in a moment.",
  network: "No connection.",
  limit: "Over a limit of the service.",
  unseen: "These unseen cards cannot be.",
  invalid: "These game facts do not fit the position.",
  budget: "Too many seconds to think.",
  fact: "A game fact cannot be read.",
  empty_hand: "Nothing to play.",
  illegal_play: "The referee does not accept this play.",
  stale: "The game moved on (another tab or window played): here it is as it stands now.",
  not_your_turn: "It is not your turn: here is the game as it stands now.",
  not_found: "No such game.",
  unknown_game: "No such game.",
  read_only: "This game cannot be played from here.",
  review: "The review is not ready.",
  import: "This file cannot be imported.",
};

/** What kind of problem an error is, said about the field it is in (a notation error in
 * the unseen cards is not the position's). */
function leadOf(error) {
  if (error.type === "notation" && error.field === "unseen") return term("These unseen cards cannot be read.");
  return term(ERROR_LEADS[error.type] || "Something is wrong.");
}

/** The advice's game facts: the API's field -> the page's input. */
const FACT_INPUTS = {
  hand_sizes: "hand-sizes", stock: "stock", scores: "scores", draws_left: "draws-left", budget_seconds: "budget",
};

/** The input a game-fact error is about: its field, or (a fact that does not fit) the words it uses. */
function factInputOf(error) {
  if (FACT_INPUTS[error.field]) return FACT_INPUTS[error.field];
  // The position's own problem (an empty hand), the unseen cards' (their own box), or the
  // knock decision's (a hand over the threshold): not a fact of the facts box.
  if (["position", "unseen", "decision"].includes(error.field)) return null;
  if (error.type !== "invalid") return null;
  const words = [["hand size", "hand-sizes"], ["stock", "stock"], ["score", "scores"], ["draws left", "draws-left"]];
  const found = words.find(([word]) => error.message.includes(word));
  return found ? found[1] : "hand-sizes";
}

/** A local error about one fact field, in the service's error shape. */
function factError(field, message) {
  const error = new Error(message);
  Object.assign(error, { type: "fact", field, problems: [message] });
  return error;
}

/** The fact fields that are filled, read and checked: {hand_sizes: [9], stock: 20, ...}. */
function readFacts() {
  const facts = {};
  const lists = { hand_sizes: "The other hand sizes", scores: "The scores" };
  for (const [field, name] of Object.entries(lists)) {
    const text = document.getElementById(FACT_INPUTS[field]).value.trim();
    if (!text) continue;
    const parts = text.split(/[\s,]+/).filter(Boolean);
    if (!parts.every((part) => /^-?\d+$/.test(part))) {
      throw factError(field, `${name} are whole numbers separated by commas, like 10, 9; not '${text}'.`);
    }
    facts[field] = parts.map(Number);
  }
  for (const [field, name] of [["stock", "The stock"], ["draws_left", "The draws left"]]) {
    const text = document.getElementById(FACT_INPUTS[field]).value.trim();
    if (!text) continue;
    if (!/^\d+$/.test(text)) throw factError(field, `${name} is a whole number, 0 or more; not '${text}'.`);
    facts[field] = Number(text);
  }
  const budget = document.getElementById("budget").value.trim();
  if (budget) {
    if (!/^\d*\.?\d+$/.test(budget) || Number(budget) <= 0) {
      throw factError("budget_seconds", `The seconds to think are a number above 0, like 3; not '${budget}'.`);
    }
    facts.budget_seconds = Number(budget);
  }
  return facts;
}

/** Show an API error (or a local one) in words, in the given box; null clears the box.  The
 * words are the game's (the service's messages say cards and hand, Rummikub's tiles and rack). */
/** An error's text in the game's words; in Rummikub the cards it names (the referee writes
 * notation) are drawn as tiles, while card games keep the notation the player typed. */
function errorText(text) {
  return usingTiles() ? richText(text) : document.createTextNode(term(text));
}

function showError(box, error, input = null) {
  box.replaceChildren();
  box.hidden = !error;
  if (input) input.setAttribute("aria-invalid", String(Boolean(error)));
  if (!error) return;
  const lead = document.createElement("strong");
  lead.textContent = leadOf(error);
  const message = document.createElement("span");
  message.className = "error-message";
  // The box sits next to the input at fault: "position: bad card ..." needs no "position: ".
  let text = error.field ? error.message.replace(`${error.field}: `, "") : error.message;
  // The page has already shown the game as it stands: the service's "reload" is done.
  if (error.type === "stale") text = text.replace(/: reload the game and act again$/, "; act again from here");
  // Each problem is said once: when the message already joins them all, one problem stays
  // in the sentence, several go to the list below the sentence's head.
  let problems = (error.problems || []).filter((problem) => problem !== error.message);
  if (problems.length > 1 && problems.every((problem) => text.includes(problem))) {
    text = `${text.slice(0, text.indexOf(problems[0])).replace(/[\s:;]+$/, "")}:`;
  } else {
    problems = problems.filter((problem) => !text.includes(problem));
  }
  message.append(" ", errorText(text));
  box.append(lead, message);
  if (problems.length) {
    const list = document.createElement("ul");
    for (const problem of problems) {
      const item = document.createElement("li");
      item.append(errorText(problem));
      list.append(item);
    }
    box.append(list);
  }
}

// --- tabs ---------------------------------------------------------------------------------

function setupTabs(onSelect) {
  const tabs = [...document.querySelectorAll("[role=tab]")];
  function select(tab, focus) {
    for (const other of tabs) {
      const selected = other === tab;
      other.setAttribute("aria-selected", String(selected));
      other.tabIndex = selected ? 0 : -1;
      $(other.getAttribute("aria-controls")).hidden = !selected;
    }
    if (focus) tab.focus();
    onSelect(tab);
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
  return select;
}

/** "Manipulation (1-2 decks, 1-2 jokers)", "Rummikub (2 sets, 2 jokers)" for one entry of
 * /v1/variants: the decks its player counts use (the entry alone is the largest, which read
 * as the 2-player game's deck beside a player count of 1 deck). */
function variantOption(item, counts = []) {
  const span = (key) => {
    const values = counts.length ? counts.map((n) => n[key]) : [item[key]];
    const low = Math.min(...values);
    const high = Math.max(...values);
    return { text: low === high ? String(high) : `${low}-${high}`, one: low === high && high === 1 };
  };
  const deckSpan = span("decks");
  const jokerSpan = span("jokers");
  const jokers = item.jokers ? `, ${jokerSpan.text} joker${jokerSpan.one ? "" : "s"}` : ", no jokers";
  const decks = termFor(item.name, `${deckSpan.text} deck${deckSpan.one ? "" : "s"}`);
  return new Option(`${item.name[0].toUpperCase()}${item.name.slice(1)} (${decks}${jokers})`, item.name);
}

// --- the address: a position can be shared as ?p=...&v=... -----------------------------------

/** Page state <-> query parameters: p (position), v (variant), and the options when not default. */
const PARAMS = {
  p: "notation", v: "variant", players: "players", objective: "objective", unseen: "unseen",
  hand_sizes: "hand-sizes", stock: "stock", scores: "scores", draws_left: "draws-left",
};

/** The game facts a link may carry (a review's mistake puzzles do): they open the facts box. */
const FACT_FIELDS = ["hand-sizes", "stock", "scores", "draws-left"];

/** What a link opens with, beside its position: the answer it was shared for ("show"). A
 * link without "show" opens with the hint; "none" only fills the form (a mistake puzzle's
 * link: the player should think first). */
const SHOWN = ["hint", "analysis", "advice", "none"];

function readAddress() {
  const query = new URLSearchParams(window.location.search);
  const state = {};
  for (const [key, id] of Object.entries(PARAMS)) if (query.has(key)) state[id] = query.get(key);
  state.show = SHOWN.includes(query.get("show")) ? query.get("show") : "hint";
  if (query.has("keep_jokers")) state.keepJokers = query.get("keep_jokers") === "1";
  if (query.has("opened")) state.notOpened = query.get("opened") === "0";
  if (query.get("decision") === "knock") state.knockDecision = true;
  return state;
}

/** The query string for the current entry and what is shown for it ("show", left out for
 * the hint, a link's default): empty values and defaults are left out. */
function addressOf(shownKind) {
  const query = new URLSearchParams();
  for (const [key, id] of Object.entries(PARAMS)) {
    const value = $(id).value.trim();
    const isDefault = (id === "variant" && value === "manipulation") || (id === "objective" && value === "points");
    if (value && !isDefault) query.set(key, value);
  }
  if ($("keep-jokers").checked && !$("keep-jokers-option").hidden) query.set("keep_jokers", "1");
  if ($("not-opened").checked && !$("not-opened-option").hidden) query.set("opened", "0");
  if ($("knock-decision").checked && !$("knock-decision-option").hidden) query.set("decision", "knock");
  if (shownKind && shownKind !== "hint" && query.has("p")) query.set("show", shownKind);
  if (!shownKind && query.has("p")) query.set("show", "none");
  const seed = new URLSearchParams(window.location.search).get("seed");
  if (seed) query.set("seed", seed);  // the puzzles' fixed seed stays
  const text = query.toString();
  // The Play tab's addresses (/play/<id>, /replay/<rid>) are not the position's.
  const path = playRoute(window.location.pathname) ? "/" : window.location.pathname;
  return `${path}${text ? `?${text}` : ""}`;
}

// --- the page -------------------------------------------------------------------------------

async function main() {
  const field = $("notation");
  const entryError = $("entry-error");
  const note = $("notation-note");
  const variant = $("variant");
  const players = $("players");
  const status = $("status");
  const hintView = $("hint-view");
  const analysisView = $("analysis-view");
  const adviceView = $("advice-view");
  const askDeclaration = setupJokerDialog();
  let variants = [];
  let playerCounts = {};
  let shown = null;  // the last hint or analysis drawn: {kind, data}, drawn again when the faces change

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
      remember();
    },
  });

  const play = new PlayMode({ askDeclaration, showError, onVariant: () => useFaces() });

  /** The address bar and the share link follow the entry (replaceState: no history entry per click). */
  function remember() {
    if (play.active()) return;  // the Play tab's address is the game's
    const address = addressOf(shown && shown.kind);
    $("share-link").href = address;
    window.history.replaceState(null, "", address);
  }

  /** Field -> picker: the cards follow the notation whenever it can be read. */
  function syncFromField() {
    try {
      entry.setPosition(field.value);
      note.textContent = "";
    } catch (error) {
      if (!(error instanceof NotationError)) throw error;
      note.textContent = term(`The cards below show the last position that could be read (${error.message}).`);
    }
    remember();
  }
  let typing = 0;
  field.addEventListener("input", () => {
    clearTimeout(typing);
    typing = setTimeout(syncFromField, 200);
  });

  const info = (name) => variants.find((item) => item.name === name);
  /** What the page needs to know of a variant: does it knock, is it played with tiles, does a
   * draw end the turn (RULES.md: Machiavelli and Rummikub are meld or draw; solver's
   * Variant.draw_ends_turn). */
  const rulesOf = (name) => {
    const chosen = info(name);
    return {
      knocks: !chosen || chosen.knock_threshold !== null,
      tiles: name === "rummikub",
      drawEndsTurn: name === "machiavelli" || name === "rummikub",
    };
  };

  /** Cards or tiles: those of the variant of the tab in view; whatever is drawn is drawn again. */
  function useFaces() {
    const puzzleTab = $("tab-puzzle").getAttribute("aria-selected") === "true";
    const name = play.active() ? play.variantName() : puzzleTab ? $("puzzle-variant").value : variant.value;
    const tiles = rulesOf(name).tiles;
    if ((document.documentElement.dataset.faces === "tiles") === tiles) return;
    useTiles(tiles);
    entry.redraw();
    if (shown && shown.kind === "hint") renderHint(hintView, shown.data, rulesOf(shown.data.variant));
    if (shown && shown.kind === "analysis") renderAnalysis(analysisView, shown.data, rulesOf(shown.data.variant));
    if (shown && shown.kind === "advice") renderAdvice(adviceView, shown.data);
    puzzles.redraw();
    play.redraw();
  }

  /** The player counts of the chosen variant, keeping the chosen count when it still applies. */
  function usePlayerCounts(wanted) {
    const counts = playerCounts[variant.value] || [];
    const chosen = info(variant.value);
    const decks = (n) => termFor(variant.value, `${n.decks} deck${n.decks === 1 ? "" : "s"}`);
    const jokers = (n) => (n.jokers ? `, ${n.jokers} joker${n.jokers === 1 ? "" : "s"}` : "");
    // No count chosen: the service assumes two players, or more when the cards need a
    // second deck (solver.facts), and says so in its answer.
    const two = counts.find((n) => n.players === 2);
    const more = termFor(variant.value, "more if the cards need it");
    const fallback = new Option(two ? `Default: 2 (${decks(two)}${jokers(two)}; ${more})` : "Default", "");
    players.replaceChildren(fallback, ...counts.map((n) => new Option(`${n.players} (${decks(n)}${jokers(n)})`,
      String(n.players))));
    players.value = counts.some((n) => String(n.players) === wanted) ? wanted : "";
  }

  /** The variant (and player count) chosen: the deck, the options that apply, the faces. */
  function useVariant() {
    const chosen = info(variant.value);
    if (!chosen) return;
    const count = (playerCounts[variant.value] || []).find((n) => String(n.players) === players.value);
    const deck = count || chosen;
    entry.setDeck(deck.decks, deck.jokers);
    $("keep-jokers-option").hidden = !deck.jokers;
    $("not-opened-option").hidden = !chosen.opening_points;
    $("knock-decision-option").hidden = chosen.knock_threshold === null;  // only where a hand may knock
    $("not-opened-label").textContent = chosen.opening_points
      ? `Not opened yet: the first meld must be worth ${chosen.opening_points} from the rack, the table untouched`
      : "";
    useFaces();
    remember();
  }
  variant.addEventListener("change", () => {
    usePlayerCounts(players.value);
    useVariant();
  });
  players.addEventListener("change", useVariant);
  for (const id of ["objective", "keep-jokers", "not-opened", "knock-decision"]) {
    $(id).addEventListener("change", remember);
  }
  $("unseen").addEventListener("input", remember);
  for (const id of FACT_FIELDS) $(id).addEventListener("input", remember);

  function busy(button, words) {
    for (const other of document.querySelectorAll(".entry-actions button")) other.disabled = true;
    button.setAttribute("aria-busy", "true");
    status.textContent = words;
    return () => {
      for (const other of document.querySelectorAll(".entry-actions button")) other.disabled = false;
      button.removeAttribute("aria-busy");
    };
  }

  /** The request body: the position, the rules, and the options the endpoint takes. */
  function body(path) {
    const request = { position: field.value, variant: variant.value };
    if (players.value) request.players = Number(players.value);
    if (path === "/v1/hint") {
      request.objective = $("objective").value;
      if (!$("keep-jokers-option").hidden) request.keep_jokers = $("keep-jokers").checked;
      if (!$("not-opened-option").hidden) request.opened = !$("not-opened").checked;
    } else if ($("unseen").value.trim()) {
      request.unseen = $("unseen").value;
    }
    if (path === "/v1/advise") Object.assign(request, readFacts());
    if (path === "/v1/advise" && $("knock-decision").checked && !$("knock-decision-option").hidden) {
      request.decision = "knock";  // the turn's melds and draws are done: knock or pass
    }
    return request;
  }

  async function ask(button, path, words, show) {
    clearTimeout(typing);
    syncFromField();
    showError(entryError, null, field);
    showError($("unseen-error"), null, $("unseen"));
    showError($("facts-error"), null);
    for (const id of Object.values(FACT_INPUTS)) $(id).removeAttribute("aria-invalid");
    const done = busy(button, words);
    try {
      const data = await post(path, body(path));
      show(data);
    } catch (error) {
      status.textContent = "";
      hintView.hidden = analysisView.hidden = adviceView.hidden = true;
      shown = null;
      const factInput = path === "/v1/advise" ? factInputOf(error) : null;
      if (factInput) {
        $("facts-box").open = true;
        showError($("facts-error"), error, $(factInput));
        $(factInput).focus();
      } else {
        const unseenAtFault = error.field === "unseen";
        showError(unseenAtFault ? $("unseen-error") : entryError, error, unseenAtFault ? $("unseen") : field);
        (unseenAtFault ? $("unseen") : field).focus();
      }
    } finally {
      done();
    }
  }

  $("entry-form").addEventListener("submit", (event) => {
    event.preventDefault();
    ask($("hint-button"), "/v1/hint", "Looking for the best play…", (hint) => {
      analysisView.hidden = adviceView.hidden = true;
      const rules = rulesOf(hint.variant);
      shown = { kind: "hint", data: hint };
      remember();
      renderHint(hintView, hint, rules);
      hintView.hidden = false;
      $("hint-heading").focus();
      if (!hint.hand.length && !hint.played.length) {
        status.textContent = term("The hand is empty: nothing to play.");
        return;
      }
      const played = hint.played.length ? `play ${hint.played.map(pieceText).join(" ")}` : "no play";
      const end = hint.goes_out ? "; you go out" : !rules.knocks ? ""
        : hint.can_knock ? "; you can knock" : "; you cannot knock";
      const left = `${hint.hand_points} point${hint.hand_points === 1 ? "" : "s"} left`;
      status.textContent = `Best play: ${played}; ${left}${end}.`;
    });
  });
  $("analyze-button").addEventListener("click", (event) => {
    ask(event.currentTarget, "/v1/analyze", "Analysing: every possible draw…", (data) => {
      hintView.hidden = adviceView.hidden = true;
      shown = { kind: "analysis", data };
      remember();
      renderAnalysis(analysisView, data, rulesOf(data.variant));
      analysisView.hidden = false;
      $("analysis-heading").focus();
      const drawWord = rulesOf(data.variant).drawEndsTurn ? "draw" : "draw first";
      status.textContent = `Analysis: ${data.advice === "meld" ? "meld now" : drawWord}.`;
    });
  });
  $("advise-button").addEventListener("click", (event) => {
    const seconds = Number($("budget").value) || 3;
    ask(event.currentTarget, "/v1/advise", `Weighing every option over sampled deals (about ${seconds} s)…`, (data) => {
      hintView.hidden = analysisView.hidden = true;
      shown = { kind: "advice", data };
      remember();
      renderAdvice(adviceView, data);
      adviceView.hidden = false;
      for (const [id, text] of Object.entries(factPlaceholders(data))) $(id).placeholder = `default: ${text}`;
      $("advice-heading").focus();
      const best = data.options[0];
      const words = best.kind === "play" ? `play ${best.played.map(pieceText).join(" ")}` : best.kind;
      const count = data.options.length;
      status.textContent = `Advice: ${words} is best of ${count} option${count === 1 ? "" : "s"}.`;
    });
  });
  $("example-button").addEventListener("click", () => {
    const example = variant.value === "rummikub" ? RUMMIKUB_EXAMPLE : EXAMPLE;
    field.value = example;
    entry.setPosition(example);
    showError(entryError, null, field);
    note.textContent = "";
    remember();
  });
  $("clear-button").addEventListener("click", () => {
    entry.clear();
    field.value = "";
    hintView.hidden = analysisView.hidden = adviceView.hidden = true;
    shown = null;
    status.textContent = "";
    showError(entryError, null, field);
    remember();
  });

  const selectTab = setupTabs((tab) => {
    useFaces();
    if (tab.id === "tab-play") {
      if (!playRoute(window.location.pathname)) window.history.replaceState(null, "", play.address());
    } else {
      remember();
    }
  });

  const puzzles = new PuzzleMode({
    form: $("puzzle-form"),
    difficulty: $("difficulty"),
    variant: $("puzzle-variant"),
    view: $("puzzle-view"),
    error: $("puzzle-error"),
    askDeclaration,
    rulesOf,
    showError: (box, error) => showError(box, error, error && error.field === "after" ? $("answer-notation") : null),
  });
  $("puzzle-variant").addEventListener("change", () => useFaces());
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
        $("answer-note").textContent = term(`The cards follow the field once it reads: ${error.message}.`);
      }
    }, 200);
  });

  /** The Play tab's addresses open it (at load, and back or forward in the history). */
  function followAddress() {
    const route = playRoute(window.location.pathname);
    if (route) {
      if (!play.active()) selectTab($("tab-play"), false);
      play.open(route);
    } else if (play.active()) {
      selectTab($("tab-solve"), false);
    }
  }
  window.addEventListener("popstate", followAddress);
  if (playRoute(window.location.pathname)) followAddress();
  const given = readAddress();
  try {
    const answer = await get("/v1/variants");
    variants = answer.variants;
    playerCounts = answer.player_counts || {};
    const option = (item) => variantOption(item, playerCounts[item.name] || []);
    for (const select of [variant, $("puzzle-variant")]) select.replaceChildren(...variants.map(option));
    if (given.variant && info(given.variant)) variant.value = given.variant;
    usePlayerCounts(given.players || "");
  } catch (error) {
    showError(entryError, error, field);
  }
  if (given.objective === "points" || given.objective === "cards") $("objective").value = given.objective;
  if (given.keepJokers) $("keep-jokers").checked = true;
  if (given.notOpened) $("not-opened").checked = true;
  if (given.knockDecision) $("knock-decision").checked = true;
  if (given.unseen) $("unseen").value = given.unseen;
  const facts = FACT_FIELDS.filter((id) => given[id] !== undefined);
  for (const id of facts) $(id).value = given[id];
  if (facts.length) $("facts-box").open = true;
  if (given.notation) {
    field.value = given.notation;
    syncFromField();
  }
  useVariant();
  // A link opens with what it was shared for: the hint (by default), the analysis or the advice.
  const opening = { hint: $("hint-button"), analysis: $("analyze-button"), advice: $("advise-button") };
  const wanted = given.notation && opening[given.show];
  if (wanted && !entryError.textContent) wanted.click();
  document.body.dataset.ready = "true";
}

main();
