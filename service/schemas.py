"""Request and response bodies: positions travel in the project notation, as strings.

A request gives its position either whole (``"position": "Kh Kd Kc | Qh Qd Qc / Ac"``)
or in two parts (``"table"`` and ``"hand"``).  Strings are capped in length (a full
two-deck position fits many times over), unknown fields are refused so that a typo
does not pass silently, and the hint answer is the shared hint JSON of DESIGN.md.

The response bodies are the API's contract: every field the service sends is declared
here with its type, and nothing else may be sent (``ResponseBody``).  The jobs
(``service.jobs``) build them from the library's answers on the worker, so the OpenAPI
document states exactly what a client receives.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from service.settings import ExecutorKind
from solver.analysis import Advice
from solver.engine.alternatives import MAX_ALTERNATIVES
from solver.engine.result import Engine, HintStatus
from solver.flow import RearrangementKind
from solver.puzzles.grade import Difficulty
from solver.solution import Objective
from solver.strategy.advice import DEFAULT_SAMPLES, MIN_SAMPLES
from solver.variants import VariantName

__all__ = [
    "MAX_NOTATION_CHARS",
    "MAX_PLAYERS",
    "MAX_PUZZLES",
    "MAX_SEED",
    "ONE_WAY_TO_GIVE_THE_POSITION",
    "AdviceFact",
    "AdviceFacts",
    "AdviceOption",
    "AdviseRequest",
    "AdviseResponse",
    "AnalysisFacts",
    "AnalyzeRequest",
    "AnalyzeResponse",
    "AnalyzeStats",
    "CheckRequest",
    "CheckResponse",
    "Departure",
    "DrawOutcomeInfo",
    "HealthResponse",
    "HintPayload",
    "HintRequest",
    "HintResponse",
    "HintStats",
    "IntervalInfo",
    "JokerMove",
    "KeepMove",
    "KeptMeld",
    "MeldMove",
    "Move",
    "Outs",
    "PlayerCount",
    "PoolInfo",
    "PositionRequest",
    "PuzzleAnswer",
    "PuzzleDecoy",
    "PuzzleFeatures",
    "PuzzleItem",
    "PuzzleRequest",
    "PuzzleSolution",
    "PuzzleVerification",
    "PuzzlesResponse",
    "Rearrangement",
    "ResponseBody",
    "Source",
    "Transfer",
    "VariantInfo",
    "VariantsResponse",
]

MAX_PLAYERS = 20
"""Most players a request may name (the variants themselves may allow fewer)."""

MAX_NOTATION_CHARS = 4096
"""Longest notation string accepted: both decks and jokers written out take under 700."""

MAX_PUZZLES = 10
"""Most puzzles one request may ask for (an expert puzzle takes about a tenth of a second)."""

MAX_SEED = 2**53 - 1
"""Largest seed: the largest integer a JSON number keeps exactly in every client (JavaScript's
``Number.MAX_SAFE_INTEGER``), so that the schema's bound is an exact integer too."""

TimeLimit = Field(
    default=None,
    gt=0,
    le=3600,
    allow_inf_nan=False,
    description=(
        "Seconds the solver may search (0 < t <= the server's cap, RUMMY_MAX_TIME_LIMIT, 10 by default). "
        "Omitted: the server's default (RUMMY_DEFAULT_TIME_LIMIT, 3 by default)."
    ),
)


def _given(field: str) -> dict[str, Any]:
    """JSON Schema: ``field`` is present with a string (null counts as absent)."""
    return {"required": [field], "properties": {field: {"type": "string"}}}


ONE_WAY_TO_GIVE_THE_POSITION: dict[str, Any] = {
    "oneOf": [_given("position"), {"anyOf": [_given("table"), _given("hand")]}]
}
"""``position``, or ``table`` and/or ``hand``: exactly one of the two ways (the schema's
statement of what ``service.edge.position_of`` enforces)."""


class PositionRequest(BaseModel):
    """A position and the rules it is played under: ``position`` alone, or ``table`` and/or
    ``hand`` without ``position``.

    Strict: JSON ``true`` is not a number and ``1`` is not a boolean here (in lax mode
    pydantic would take ``"time_limit": true`` for 1 second)."""

    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra=ONE_WAY_TO_GIVE_THE_POSITION)

    position: str | None = Field(
        default=None,
        max_length=MAX_NOTATION_CHARS,
        description=(
            "The whole position, 'table / hand'. Give this, or 'table' and 'hand' instead: "
            "never 'position' together with 'table' or 'hand'."
        ),
        examples=["Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac"],
    )
    table: str | None = Field(
        default=None,
        max_length=MAX_NOTATION_CHARS,
        description=(
            "The table alone: melds separated by '|', table jokers declared (*7h). "
            "Only without 'position' (an omitted hand is empty)."
        ),
        examples=["Kh Kd Kc | Qh Qd Qc | Jh Jd Jc"],
    )
    hand: str | None = Field(
        default=None,
        max_length=MAX_NOTATION_CHARS,
        description=(
            "The hand alone: cards separated by spaces, jokers as *. "
            "Only without 'position' (an omitted table is empty)."
        ),
        examples=["Ac"],
    )
    variant: VariantName = Field(default="manipulation", description="Rule variant.")
    players: int | None = Field(
        default=None,
        ge=2,
        le=MAX_PLAYERS,
        description="Player count; picks the deck (Manipulation with 2 players: one deck, one joker).",
    )


class HintRequest(PositionRequest):
    """Ask for the best play."""

    objective: Objective = Field(
        default="points", description="points: fewest points left in hand; cards: most cards played."
    )
    keep_jokers: bool = Field(default=False, description="Play a hand joker only to go out.")
    opened: bool = Field(
        default=True, description="false: the player has not opened yet (Rummikub's 30-point first meld)."
    )
    time_limit: float | None = TimeLimit
    alternatives: int = Field(
        default=0,
        ge=0,
        le=MAX_ALTERNATIVES - 1,
        description=(
            "Also return up to this many other plays, next best first, each playing a different set "
            "of cards (holding some back, or playing others); the time limit bounds each solve."
        ),
    )


class CheckRequest(PositionRequest):
    """Ask whether a play is legal: the position before it and the table after it."""

    after: str = Field(
        max_length=MAX_NOTATION_CHARS,
        description="The table after the play, e.g. 'Jh Qh Kh | Jd Qd Kd | Jc Qc Kc Ac'.",
    )
    opened: bool = Field(default=True, description="false: apply the variant's opening rule.")


class AnalyzeRequest(PositionRequest):
    """Ask for the analysis of a position: outs, draw-or-meld advice, playable cards."""

    unseen: str | None = Field(
        default=None,
        max_length=MAX_NOTATION_CHARS,
        description=(
            "Cards the player cannot see (the stock and other hands), as a hand, e.g. '7h 8h *'. "
            "Omitted: every card of the deck not on the table or in the hand."
        ),
    )
    play_count_cap: int = Field(
        default=50, ge=1, le=200, description="Count at most this many distinct best plays."
    )
    time_limit: float | None = Field(
        default=None,
        gt=0,
        le=3600,
        allow_inf_nan=False,
        description=(
            "Seconds each of the analysis's solves may search (capped like the hint's time_limit). "
            "The whole analysis is bounded by RUMMY_MAX_ANALYZE_SECONDS (60 by default)."
        ),
    )


class AdviseRequest(PositionRequest):
    """Ask for the options of the turn ranked by their expected outcome over sampled deals.

    Every game fact is optional; the answer's ``facts.assumed`` lists the ones defaulted."""

    hand_sizes: list[int] | None = Field(
        default=None,
        max_length=MAX_PLAYERS,
        description="The other players' hand sizes (or every hand, the player's first). "
        "Omitted: as many cards as the player's, or with the stock given an equal share of the "
        "unseen cards it leaves. With the stock, they hold every unseen card (no discard pile).",
    )
    stock: int | None = Field(
        default=None,
        ge=0,
        le=1000,
        description="Cards in the stock. Omitted: the unseen cards the hands leave.",
    )
    scores: list[int] | None = Field(
        default=None,
        max_length=MAX_PLAYERS,
        description="Every player's game score, the player's first, each below the game's target (150 in "
        "Manipulation Rummy: a round that reaches it ends the game). Omitted: 0 each.",
    )
    draws_left: int | None = Field(
        default=None,
        ge=0,
        le=10,
        description="Draws still due this turn if the player keeps declining (0: a final turn, which "
        "comes once the stock is empty: the stock is then 0). "
        "Omitted: a turn just begun (Manipulation: 2; else 1).",
    )
    unseen: str | None = Field(
        default=None,
        max_length=MAX_NOTATION_CHARS,
        description="Cards the player cannot see, as a hand. Omitted: the deck minus table and hand.",
    )
    budget_seconds: float | None = Field(
        default=None,
        gt=0,
        le=3600,
        allow_inf_nan=False,
        description="Most seconds to spend (at most RUMMY_MAX_ADVISE_SECONDS, 10 by default): past it no "
        "more deals are played and stopped_by_budget says so. Omitted: that cap.",
    )
    samples: int = Field(
        default=DEFAULT_SAMPLES,
        ge=MIN_SAMPLES,
        le=100_000,
        description="Deals to sample: the same position, facts, seed and deals give the same answer.",
    )
    seed: int = Field(default=0, ge=0, le=MAX_SEED, description="Seed of the sampled deals (0 to 2^53-1).")
    decision: Literal["meld", "knock"] = Field(
        default="meld",
        description="'meld': the turn's options (plays, holding back, knock or not, draw). 'knock': the "
        "decision once the turn's melds and draws are done, for a hand that may knock (Manipulation "
        "Rummy): knock or pass; draws_left is then 0.",
    )


class PuzzleRequest(BaseModel):
    """Ask for puzzles of one difficulty (strict, like the position requests)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    count: int = Field(
        default=1, ge=1, le=MAX_PUZZLES, strict=True, description=f"How many puzzles (1-{MAX_PUZZLES})."
    )
    difficulty: Difficulty = Field(
        default="medium",
        description="easy, medium, hard or expert: score bands 0-8, 9-14, 15-21, 22+ "
        "(score = 3*broken + moved + hand + 2*decoys + 2*jokers + tangle).",
    )
    variant: VariantName = Field(default="manipulation", description="Rule variant.")
    players: int | None = Field(
        default=None,
        ge=2,
        le=MAX_PLAYERS,
        strict=True,
        description="Player count; picks the deck (Manipulation with 2 players: one deck, one joker).",
    )
    seed: int | None = Field(
        default=None,
        ge=0,
        le=MAX_SEED,
        strict=True,
        description="Random seed: the same seed gives the same puzzles. Omitted: random, reported back.",
    )


# --- responses -------------------------------------------------------------------------
#
# Every body the service sends, and every object inside one, is a ``ResponseBody``: each
# field declared with its type (the library's Literals where it has them), nothing else
# allowed.  The jobs build these from the library's JSON forms (``to_dict``,
# ``hint_payload``), so a field the library adds, drops or retypes fails where the answer
# is built instead of reaching clients undocumented.


class ResponseBody(BaseModel):
    """A body the service sends, or an object inside one.

    ``extra="forbid"``: no field beyond those declared (the OpenAPI document says
    ``additionalProperties: false``); ``strict``: a value of another type is an error, not
    converted (``"3"`` is no int, ``true`` no number); ``serialize_by_alias``: a field
    named for Python (``source``) is sent under its JSON name (``from``)."""

    model_config = ConfigDict(extra="forbid", strict=True, serialize_by_alias=True)


class IntervalInfo(ResponseBody):
    estimate: float
    low: float | None = Field(description="Lower 95% bound (null when it cannot be computed).")
    high: float | None = Field(description="Upper 95% bound (null when it cannot be computed).")


class AdviceOption(ResponseBody):
    """One option of the turn and its outcome over the sampled deals."""

    label: str = Field(
        description="best, alt1, alt2, hold:jokers, hold:meld (+knock/+pass), draw or pass; "
        "knock or pass for a knock decision."
    )
    kind: Literal["play", "draw", "pass", "knock"]
    description: str
    knock: bool | None = Field(description="For a play that may knock: whether it knocks; else null.")
    value: IntervalInfo = Field(
        description="What the options are ranked by: points plus round and game bonuses."
    )
    points: IntervalInfo = Field(description="Net round points: the player's minus the best other player's.")
    win: IntervalInfo = Field(description="Chance of winning the round (Wilson interval).")
    loss: IntervalInfo = Field(
        description="The best option's value minus this one's, over the deals both were played in."
    )
    about_as_good: bool = Field(
        description="The loss's interval reaches 0: the deals cannot tell this option from the best."
    )
    continuation: Literal["greedy", "hoarding"] = Field(
        description="How the player's later turns were played in the rollouts this option is worth most with."
    )
    deals: int = Field(
        description="The deals this option was played in: the best and the undecided options play more."
    )
    played: list[str] | None = Field(description="The cards the play lays (null for draw and pass).")
    table: str | None = Field(description="The table the play leaves (null for draw and pass).")
    hand: list[str] | None = Field(
        description="The hand the play really leaves: the hand minus the cards it plays "
        "(null for draw and pass)."
    )
    hand_points: int | None
    goes_out: bool | None = Field(description="The play empties the hand (ranked first).")
    melds_broken: int | None


AdviceFact = Literal["players", "hand_sizes", "stock", "scores", "draws_left", "unseen"]
"""The game facts a request may give (``solver.strategy.advice.Facts``), as ``assumed`` names them."""


class AdviceFacts(ResponseBody):
    variant: VariantName
    players: int
    decks: int = Field(description="Decks the player count implies.")
    jokers: int
    hand_sizes: list[int] = Field(description="Cards in each hand, the player's first.")
    stock: int
    scores: list[int] = Field(description="Game scores before this round, the player's first.")
    draws_left: int = Field(description="Draws still due this turn if the player keeps declining.")
    unseen: int = Field(description="Cards the player cannot see.")
    assumed: list[AdviceFact] = Field(description="The facts the request did not give (defaults).")


class AdviseResponse(ResponseBody):
    """The options of the turn, best first (solver.strategy.advice)."""

    position: str
    decision: Literal["meld", "knock"] = Field(description="The decision weighed (the request's).")
    facts: AdviceFacts
    options: list[AdviceOption]
    samples: int
    seed: int
    seconds: float
    budget_seconds: float
    stopped_by_budget: bool
    confidence: float = Field(description="Confidence of each interval (0.95 shared among the looks).")


class HintStats(ResponseBody):
    build_ms: float = Field(description="Milliseconds to prepare the instance, build the model and extract.")
    solve_ms: float = Field(description="Milliseconds in the solver (the search or CP-SAT).")
    engine: Engine = Field(
        description="What answered: 'search' (the exact fast path) or 'cp-sat' (the full model)."
    )


Source = int | Literal["hand"]
"""Where cards come from: an old meld's number (1-based, as written), or the hand."""


class KeptMeld(ResponseBody):
    old: int = Field(description="The old meld's number.")
    new: int = Field(description="Its number in the new table.")


class KeepMove(ResponseBody):
    """Old melds left exactly as they are."""

    action: Literal["keep"]
    melds: list[KeptMeld]
    text: str = Field(description="The step in plain English.")


class JokerMove(ResponseBody):
    """A table joker freed by a real card of its declaration, going on with a new declaration."""

    action: Literal["joker"]
    old_meld: int = Field(description="The old meld the joker was in.")
    joker: str = Field(description="The joker as declared on the old table, e.g. '*9h'.")
    freed_by: str = Field(description="The real card that frees it.")
    freed_by_from: Source = Field(
        description="Where that card comes from (it may also stay where it lies, in that meld)."
    )
    new_meld: int = Field(description="The new meld the joker goes to.")
    declared: str = Field(description="The card the joker stands for there.")
    text: str = Field(description="The step in plain English.")


class Departure(ResponseBody):
    """Cards taken out of the old meld a new meld is built on, and the new meld they go to."""

    to: int
    cards: list[str]


class Transfer(ResponseBody):
    """Cards that come to a new meld from one source."""

    source: Source = Field(alias="from", description="An old meld's number (1-based, as written) or 'hand'.")
    cards: list[str]


class MeldMove(ResponseBody):
    """A new meld that is not an untouched old meld: what it is built on and what comes to it."""

    action: Literal["meld"]
    new_meld: int
    on_meld: int | None = Field(
        description="The old meld it is built on (its shared cards stay in place); null: started anew."
    )
    meld: str = Field(description="The new meld, in notation.")
    remove: list[Departure] = Field(description="What leaves the old meld it is built on, to which new meld.")
    add: list[Transfer] = Field(description="What comes to it, from which old meld or the hand.")
    text: str = Field(description="The step in plain English.")


Move = Annotated[KeepMove | JokerMove | MeldMove, Field(discriminator="action")]
"""One step from the old table to the new one (solver.plan): keep (old melds left as they
are), joker (a freed table joker) or meld (a new meld built), each with a line of English."""


class Rearrangement(ResponseBody):
    """One independent part of the play: old and new melds tied by the table cards that
    pass between them (the card flow's connected components, solver.flow)."""

    kind: RearrangementKind = Field(
        description=(
            "trade: several old melds give cards to several new melds; split: one old meld becomes "
            "several; join: several old melds become one; grow: one old meld takes cards from the hand; "
            "new: a meld laid from the hand alone; keep: an old meld left as it is."
        )
    )
    old_melds: list[int] = Field(description="Old melds it involves (1-based, as in the moves).")
    new_melds: list[int] = Field(description="New melds it builds (1-based, in the new table's order).")
    hand: list[str] = Field(description="Cards it takes from the hand (jokers with their declaration).")
    moved: int = Field(description="Table cards that change meld in it.")
    tangle: int = Field(
        description="Cycle rank of its card flow: 0 when cards pass one way, more when melds trade both ways."
    )
    steps: list[int] = Field(description="The moves (1-based) that carry it out.")
    text: str = Field(description="It in plain English.")


class HintPayload(ResponseBody):
    """The shared hint JSON (DESIGN.md, ``solver.report.hint_payload``): the same object
    ``rummy hint --json`` prints."""

    status: HintStatus = Field(
        description=(
            "optimal: proven best; feasible: legal, the time limit cut the proof; no_play: no legal play; "
            "timeout: no play found in time (table and hand unchanged)."
        )
    )
    position: str = Field(description="The position asked about, in canonical notation.")
    variant: VariantName
    objective: Objective
    played: list[str] = Field(description="Cards played from the hand (jokers as *).")
    old_table: str = Field(
        description=(
            "The table before the play, its melds in the order the request wrote them: "
            "the moves' old meld numbers count in this order ('meld 1' is the first meld given)."
        )
    )
    table: str = Field(description="The table after the play, in notation.")
    melds: list[list[str]] = Field(description="The melds of that table, jokers as *7h.")
    hand: list[str] = Field(description="Cards left in the hand.")
    hand_points: int
    can_knock: bool
    goes_out: bool
    melds_broken: int = Field(description="Old melds whose cards do not all end in one meld.")
    stats: HintStats
    moves: list[Move] = Field(
        description="How to get from the old table to the new one, step by step (empty without a play)."
    )
    rearrangements: list[Rearrangement] = Field(
        description=(
            "The moves grouped into independent rearrangements: real ones (trade, split, join) first, "
            "then melds that only grow, new melds from the hand, melds left as they are "
            "(empty without a play)."
        )
    )


class HintResponse(HintPayload):
    """The best play, in the shared hint JSON; with ``alternatives`` when the request asked for them."""

    alternatives: list[HintPayload] = Field(
        default_factory=list,
        description=(
            "Only when asked for (absent otherwise): the next-best plays with other sets of played cards, "
            "best first, each a hint object of this same shape without alternatives of its own."
        ),
    )


class PuzzleFeatures(ResponseBody):
    broken: int = Field(description="Old melds every way out breaks (the fewest).")
    moved: int = Field(description="Table pieces the solution's plan moves.")
    hand: int = Field(description="Pieces in the hand.")
    decoys: int = Field(
        description="Hand cards that fit a table meld as it stands, where no way out lays them "
        "with that meld kept whole."
    )
    jokers: int = Field(description="Jokers that take part: in the hand, or in table melds that are broken.")
    tangle: int = Field(
        description="Cycle rank of the solution's card flow: 0 when cards pass one way, +1 per trade ring."
    )


class PuzzleDecoy(ResponseBody):
    """A hand card that fits a table meld as it stands, though no way out lays it there."""

    card: str
    fits_melds: list[int] = Field(description="The table melds it fits (1-based).")
    copies: int = Field(description="How many of it the hand holds.")
    text: str = Field(description="It in plain English, with where the solution plays it.")


class PuzzleSolution(ResponseBody):
    table: str = Field(description="The final table, in notation.")
    melds: list[list[str]]
    moves: list[Move] = Field(description="How to get there, step by step, as in the hint answer.")
    rearrangements: list[Rearrangement] = Field(
        description="The moves grouped into independent rearrangements, as in the hint answer."
    )


PuzzleAnswer = Literal["yes", "no", "unknown"]
"""A check's answer (``solver.puzzles.sat.Answer``, which cannot be imported without OR-Tools):
yes, no, or unknown when its time ran out."""


class PuzzleVerification(ResponseBody):
    ok: bool
    legal: bool = Field(description="The referee accepts the solution, which empties the hand.")
    untouched_goes_out: PuzzleAnswer = Field(
        description="'no': the hand cannot go out with every table meld whole."
    )
    other_solution: PuzzleAnswer = Field(description="'no': no way out with another layout exists.")
    reasons: list[str]


class PuzzleItem(ResponseBody):
    """One verified puzzle (the object ``rummy puzzle --json`` prints)."""

    number: int
    variant: VariantName
    difficulty: Difficulty
    score: int
    features: PuzzleFeatures
    position: str = Field(description="The puzzle, 'table / hand'.")
    table: str
    hand: list[str]
    decoys: list[PuzzleDecoy]
    solution: PuzzleSolution
    verification: PuzzleVerification


class PuzzlesResponse(ResponseBody):
    seed: int = Field(description="The seed used: send it back to get the same puzzles.")
    difficulty: Difficulty
    variant: VariantName
    puzzles: list[PuzzleItem]


class Outs(ResponseBody):
    go_out: list[str] = Field(description="Unseen cards that would let the player go out (* for a joker).")
    knock: list[str] = Field(description="Unseen cards that would let the player knock (going out included).")


class DrawOutcomeInfo(ResponseBody):
    card: str
    copies: int = Field(description="Unseen copies: the draw's weight.")
    points: int = Field(description="Hand points after this draw and the best play.")
    has_play: bool
    knocks: bool
    goes_out: bool


class AnalyzeStats(ResponseBody):
    ms: float
    draw_ms: float


class AnalysisFacts(ResponseBody):
    """The game facts the analysis used (solver.facts): the players and the deck they imply."""

    players: int | None = Field(description="Players at the table (the request's, or the implied count).")
    decks: int
    jokers: int
    unseen: int = Field(description="Cards the player cannot see.")
    assumed: list[Literal["players"]] = Field(
        description="The facts the request did not give: ['players'] or []."
    )


class AnalyzeResponse(ResponseBody):
    """The analysis of a position (solver.analysis): the best play, playable cards, the
    number of best plays, and meld-now-or-draw figures with the outs."""

    position: str
    variant: VariantName
    facts: AnalysisFacts
    hand_points: int
    best: HintPayload
    playable: list[str] = Field(description="Hand pieces some legal play uses.")
    never_playable: list[str] = Field(description="Hand pieces no legal play uses.")
    optimal_plays: int = Field(description="Distinct sets of played cards among the best plays.")
    optimal_plays_capped: bool = Field(description="More best plays exist than the cap let the count reach.")
    meld_now_points: int
    draw_expected_points: float = Field(
        description=(
            "Expected hand points after drawing one unseen card and then the best play: in the same turn "
            "in Manipulation Rummy, at the next turn with the table as it is now in Machiavelli and "
            "Rummikub (a draw ends the turn there)."
        )
    )
    draw_expected_fraction: str = Field(
        description="draw_expected_points as the exact fraction it is rounded from, e.g. '33/7' (or '2')."
    )
    knock_probability: float
    out_probability: float
    advice: Advice = Field(
        description=(
            "'meld' unless drawing is expected to leave strictly fewer points (or there is no play): "
            "by points only."
        )
    )
    can_meld_now: bool
    outs: Outs
    unseen_cards: int
    draws: list[DrawOutcomeInfo]
    exact: bool = Field(description="false when a time limit stopped some solve.")
    stats: AnalyzeStats


class CheckResponse(ResponseBody):
    """The referee's verdict on a play."""

    position: str = Field(description="The position before the play, canonical.")
    after: str = Field(description="The table after the play, canonical.")
    ok: bool = Field(description="Whether the play is legal.")
    reasons: list[str] = Field(description="Every rule the play breaks (empty when legal).")


class VariantInfo(ResponseBody):
    """One rule variant, as ``Variant.describe()`` gives it."""

    name: VariantName
    decks: int
    jokers: int
    deck_size: int
    ace_high: bool
    hand_size: int
    opening_points: int
    joker_points: int
    face_points: int = Field(description="Points of a J, Q or K left in a hand (0: its number).")
    ace_points: int = Field(description="Points of an ace left in a hand.")
    knock_threshold: int | None
    target_score: int | None
    knock_only_after_meld: bool = Field(description="A hand may knock only in a turn with a meld.")
    round_bonus_to_all: bool
    players: int | None


class PlayerCount(ResponseBody):
    """The deck a variant uses for one number of players."""

    players: int
    decks: int
    jokers: int
    hand_size: int


class VariantsResponse(ResponseBody):
    variants: list[VariantInfo] = Field(
        description=(
            "Every variant as a request without 'players' is checked against: the largest deck any "
            "player count uses (Manipulation: two decks and two jokers). The game facts of such a "
            "request assume the fewest players whose deck holds its cards (Manipulation: 2 players "
            "and one deck, 3 when the cards need two decks): see 'player_counts'."
        )
    )
    player_counts: dict[VariantName, list[PlayerCount]] = Field(
        description=(
            "Per variant, every player count a request may give in 'players', with the deck it picks "
            "(Manipulation with 2 players: one deck and one joker)."
        )
    )


class PoolInfo(ResponseBody):
    workers: int = Field(description="Solves that run at once.")
    queue: int = Field(description="Requests that may wait for a worker.")
    running: int
    waiting: int
    replaced: int = Field(
        description="Worker processes started in place of one that died, froze or had its job stopped."
    )


class HealthResponse(ResponseBody):
    status: Literal["ok"]
    version: str
    executor: ExecutorKind = Field(description="process or thread workers.")
    pool: PoolInfo
    max_time_limit: float
    default_time_limit: float
    max_body_bytes: int


class EngineBuild(ResponseBody):
    """Which compiled engine answers: its modules' fingerprints and whether it prices states."""

    search: str = Field(description="sha256 of the C search module as built (first 16 hex digits).")
    points: str = Field(description="sha256 of the C points module as built (first 16 hex digits).")
    prices: bool = Field(description="Whether the search bounds its states with HiGHS's linear prices.")


class VersionResponse(ResponseBody):
    """What answers: the package, the solver library, the engine build and the Python."""

    package: str = Field(description="Version of this service's package (manipulation-rummy).")
    ortools: str | None = Field(description="OR-Tools version (CP-SAT and HiGHS), None if not installed.")
    python: str
    engine: EngineBuild
