"""Request and response bodies of the games API (``/v1/games``): a game against the bots.

In the service's style (``service.schemas``): strict requests that refuse unknown
fields, and responses whose every field is declared (``ResponseBody``), built on the
worker from ``solver.play``'s plain data so that what a client receives is what the
OpenAPI document states.  Pieces are written as people read them (``7♥``, ``★7♥``;
Rummikub's tiles ``r7``, ``★r7``), the ``*_text`` fields in the notation.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from service.schemas import MAX_NOTATION_CHARS, MAX_SEED, ResponseBody
from solver.game.actions import ActionKind
from solver.game.scoring import EndReason
from solver.game.view import Phase
from solver.strategy.review import Band
from solver.variants import VariantName

__all__ = [
    "ActRequest",
    "AdviseGameRequest",
    "BotTurnInfo",
    "GameState",
    "HelpRequest",
    "HelpResponse",
    "NewGameRequest",
    "NewGameResponse",
    "ReviewDecision",
    "ReviewResponse",
]

MAX_GAME_PLAYERS = 4
"""Players of a game on the page, the human included."""
MAX_TURN = 1_000_000
"""The largest turn counter a request may send (a game has a few hundred entries)."""


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


Turn = Annotated[
    int,
    Field(
        ge=0,
        le=MAX_TURN,
        description="The game's turn counter as the client last saw it (the state's `turn`): "
        "a request with another counter is stale (409) and changes nothing.",
    ),
]


class NewGameRequest(_Request):
    """A new game against the bots."""

    variant: VariantName = Field(default="manipulation", description="Rule variant.")
    players: int = Field(default=2, ge=2, le=MAX_GAME_PLAYERS, description="Players, you included (2-4).")
    opponents: list[Annotated[str, Field(max_length=64)]] | None = Field(
        default=None,
        max_length=MAX_GAME_PLAYERS - 1,
        description="One bot per other seat, in seat order, by name (random, greedy, expert, hoarder, pimc). "
        "Omitted: pimc, the search bot, at every other seat.",
        examples=[["pimc"]],
    )
    seed: int | None = Field(
        default=None,
        ge=0,
        le=MAX_SEED,
        description="Seed of the deal and of the bots. Omitted: random, kept.",
    )
    seat: int = Field(default=0, ge=0, le=MAX_GAME_PLAYERS - 1, description="Your seat (0: the first).")


class PlayBody(_Request):
    type: Literal["play"]
    table: str = Field(
        max_length=MAX_NOTATION_CHARS,
        description="The whole table after the play, melds in the order laid out "
        "(e.g. '7h 8h 9h | Ks Kd Kc').",
    )


class DrawBody(_Request):
    type: Literal["draw"]


class KnockBody(_Request):
    type: Literal["knock"]


class PassBody(_Request):
    type: Literal["pass"]


ActionBody = Annotated[PlayBody | DrawBody | KnockBody | PassBody, Field(discriminator="type")]


class ActRequest(_Request):
    """Your action: a play (the table after it), draw, knock or pass, as the turn allows."""

    turn: Turn
    action: ActionBody


class HelpRequest(_Request):
    """Help for your decision: level 1, 2 or 3."""

    turn: Turn
    # An int from 1 to 3, not Literal[1, 2, 3]: a Literal matches by equality even in
    # strict mode, so ``true`` and ``2.0`` were taken as levels 1 and 2.
    level: int = Field(
        ge=1,
        le=3,
        strict=True,
        description="1: whether a play exists and the points the best play leaves; 2: also the cards it "
        "lays; 3: also the whole play, its table and steps.",
    )


class AdviseGameRequest(_Request):
    """Advice for your meld decision: the options ranked over sampled deals."""

    turn: Turn


# --- responses -------------------------------------------------------------------------


class PlayerInfo(ResponseBody):
    seat: int
    name: str = Field(description="'you', or the bot's name.")
    cards: int = Field(description="Cards in the hand now.")
    total: int = Field(description="Game score: the sum of the finished rounds' scores.")


class BotTurnInfo(ResponseBody):
    """One bot action since your last action (what a bot drew is never shown)."""

    seat: int
    name: str
    round: int
    kind: ActionKind
    steps: list[str] = Field(description="A play's steps from the table before it, as the hint writes them.")
    table: list[list[str]] = Field(description="The table after the action, in the order shown.")
    table_text: str = Field(description="That table in notation.")
    cards_after: int = Field(description="Cards in the bot's hand after the action.")


class RoundEndInfo(ResponseBody):
    """The last round that ended since your last action: how, and what it scored."""

    round: int
    reason: EndReason
    knocker: int | None
    out: int | None = Field(description="The seat that went out, if one did.")
    hands: list[list[str]] = Field(description="Every hand at the end, seat by seat.")
    points: list[int] = Field(description="The points left in each hand.")
    scores: list[int] = Field(description="What the round scored, seat by seat.")
    winners: list[int]
    undercut: list[int]
    totals: list[int] = Field(description="The game scores after the round.")


class ResultInfo(ResponseBody):
    winners: list[int]
    totals: list[int] = Field(description="The sum of the round scores.")
    bonuses: list[int] = Field(description="End-of-game bonuses.")
    final: list[int]
    rounds: int


class HelpUseInfo(ResponseBody):
    turn: int = Field(description="The help's entry: the turn counter when it was asked.")
    level: int


class GameState(ResponseBody):
    """The game as you see it: your hand, the table, the hands' sizes, the bots' turns."""

    id: str | None = Field(description="The game's secret id (null in a replay).")
    replay_id: str = Field(description="The read-only id of the replay link (/replay/<replay_id>).")
    read_only: bool = Field(description="A replay, or an imported game: it cannot act, ask help or advice.")
    source: Literal["played", "imported"]
    seed: int | None = Field(
        description="The game's seed once it is over (null before: the seed and the code give every deal)."
    )
    variant: VariantName
    seat: int = Field(description="Your seat.")
    turn: int = Field(description="The turn counter: the game's entries so far; send it back with a request.")
    round: int
    over: bool
    to_move: int | None = Field(description="The seat to move (null once the game is over).")
    phase: Phase = Field(description="Yours: meld (play or draw/pass), knock (knock or pass), wait, over.")
    can: list[ActionKind] = Field(description="The actions your turn allows now (empty when not your turn).")
    opened: bool = Field(description="Whether you have made the opening meld (Rummikub's 30 points).")
    final_turn: bool = Field(description="A last turn after the stock ran out: play or pass, no draw.")
    table: list[list[str]] = Field(
        description="The table's melds in the order shown, pieces as people read them."
    )
    table_text: str = Field(description="The table in notation, in the same order.")
    hand: list[str]
    hand_text: str
    hand_points: int
    drawn: list[str] = Field(description="The cards you drew this turn (Manipulation Rummy), in order.")
    players: list[PlayerInfo]
    stock: int
    bot_turns: list[BotTurnInfo]
    round_end: RoundEndInfo | None
    result: ResultInfo | None
    help_used: list[HelpUseInfo]


class NewGameResponse(ResponseBody):
    id: str = Field(description="The game's secret id: whoever holds it plays the game (/play/<id>).")
    replay_id: str
    state: GameState


class HelpResponse(ResponseBody):
    """Help for your decision; fields of a higher level are null at a lower one."""

    level: int
    exists: bool = Field(description="Whether a legal play exists.")
    points_left: int = Field(
        description="Points the best play leaves in your hand (your hand's, without one)."
    )
    cards: list[str] | None = Field(description="Level 2+: the hand cards the best play lays.")
    steps: list[str] | None = Field(
        description="Level 3: the steps from the table shown to the play's table."
    )
    table: str | None = Field(
        description="Level 3: the table after the play, in notation (submit it to play)."
    )
    melds: list[list[str]] | None = Field(description="Level 3: that table's melds as people read them.")


class ReviewDecision(ResponseBody):
    round: int
    turn: int = Field(description="The round's turn it was made in (every player's turns counted).")
    phase: str
    played: str = Field(description="The move made.")
    best: str = Field(description="The advised move.")
    loss: float = Field(description="Expected value given up against the advised move.")
    about_as_good: bool = Field(description="The deals cannot tell the move from the advised one.")
    band: Band


class ReviewResponse(ResponseBody):
    """The review of your decisions (``rummy review``'s, on fewer deals)."""

    seat: int
    player: str
    accuracy: float = Field(description="0-100: the mean of 100 x exp(-loss / 20) over your decisions.")
    bands: dict[str, int] = Field(description="Decisions per band: ok, inaccuracy, mistake, blunder.")
    error_rate: float
    loss_per_decision: float
    total_loss: float
    luck: float = Field(description="The measured draws' luck, summed (Manipulation Rummy).")
    draws: int = Field(description="The draws whose luck was measured.")
    decisions: list[ReviewDecision]
    plot_svg: str | None = Field(
        description="The review's plot as an SVG document (null without matplotlib)."
    )
    puzzles: list[dict[str, Any]] = Field(
        description="Your clear mistakes as puzzles (rummy review --puzzles)."
    )
    samples: int
    seconds: float
