"""Rummikub looks like Rummikub at the command line: tiles numbered 1-13 in four colours,
"tile" and "rack" in the texts, no knocking; the card games and every ``--json`` stay as
they were (``solver.cli.faces``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text
from typer.testing import CliRunner

from solver.cli import app
from solver.cli.faces import CARDS, TILES, FacesConsole, Verbatim, faces_for, tile_words
from solver.cli.terminal import HELP, TILES_HELP, help_text
from solver.engine import hint
from solver.position import Position
from solver.report import hint_payload
from solver.variants import Variant

runner = CliRunner()

SUITS = re.compile("[♠♥♦♣]")
TILE = re.compile(r"(?<![\w★])★?[krbo](?:1[0-3]|[1-9])\b")
CARD_NAME = re.compile(r"(?<![\w*])\*?(?:10|[2-9AJQK])[shdc](?!\w)")

KINGS = "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac"
JOKERS = "5s 6s 7s | 9h 9d 9c | Jd Qd Kd / 8s 9s 2c 2d *"


def rummikub_text(output: str) -> str:
    """Check ``output`` reads as Rummikub: tiles, no suit symbols, no card, no knock."""
    assert not SUITS.search(output), output
    assert "card" not in output.lower(), output
    assert "knock" not in output.lower(), output
    assert TILE.search(output), output
    return output


def invoke(args: list[str], code: int = 0, input: str | None = None) -> str:
    outcome = runner.invoke(app, args, input=input)
    assert outcome.exit_code == code, (args, outcome.output, outcome.exception)
    return outcome.stdout


# -- the faces themselves -----------------------------------------------------------


def test_tiles_are_colour_letter_and_number() -> None:
    said = TILES.text("Play Q♥ 10♦ A♠ K♣ ★J♥ ★, or Qh *10d As Kc * from your hand: 3 cards").plain
    assert said == "Play r12 b10 k1 o13 ★r11 ★, or r12 ★b10 k1 o13 ★ from your rack: 3 tiles"
    assert tile_words(Position.parse("/ Qd").hand.pieces[0]) == "blue 12"  # type: ignore[arg-type]


def test_words_that_only_look_like_cards_stay() -> None:
    text = "score 18 = 3*2 broken; 1.5s taken; handle 10 hands; Ace"
    assert TILES.text(text).plain == "score 18 = 3*2 broken; 1.5s taken; handle 10 racks; Ace"


def test_card_faces_change_nothing() -> None:
    text = Text("Hand  ", style="bold") + Text("Q♥ Qh", style="red")
    assert CARDS.text(text) is text
    assert CARDS.text("a card in hand").plain == "a card in hand"


def test_styles_stay_and_tiles_take_their_colour() -> None:
    said = TILES.text(Text("Hand  ", style="bold") + Text("Q♥ ", style="red") + Text("Q♦", style="red"))
    assert said.plain == "Rack  r12 b12"
    console = Console(force_terminal=True, color_system="standard", width=80)
    with console.capture() as captured:
        console.print(said)
    shown = captured.get()
    assert "\x1b[1;31mr12" in shown and "\x1b[1;94mb12" in shown  # red 12 red, blue 12 blue


def test_faces_follow_the_variant() -> None:
    assert faces_for(Variant.rummikub()).tiles and not faces_for(Variant.rummikub()).knocks
    assert not faces_for(Variant.machiavelli()).tiles and not faces_for(Variant.machiavelli()).knocks
    assert faces_for(Variant.manipulation()) == CARDS and CARDS.knocks


def test_the_console_rewrites_tables_rules_and_markup_but_not_verbatim() -> None:
    console = FacesConsole(width=100, faces=TILES, color_system=None)
    table = RichTable(title="cards")
    table.add_column("card")
    table.add_row(Text("Q♥", style="red"))
    with console.capture() as captured:
        console.print("[bold]Hand[/bold] Qh")
        console.rule("the cards")
        console.print(table)
        console.print(Verbatim("Position: Qh Qd Qc / As"))
    shown = captured.get()
    assert "Rack r12" in shown and "the tiles" in shown and "r12" in shown
    assert "tile" in shown.splitlines()[2] and "card" not in shown.replace("Position: Qh Qd Qc / As", "")
    assert "Position: Qh Qd Qc / As" in shown


def test_the_game_help_of_tiles_has_no_knock() -> None:
    assert help_text(TILES) == TILES_HELP and help_text(CARDS) == HELP
    machiavelli = help_text(faces_for(Variant.machiavelli()))
    assert "knock" not in machiavelli and "card" in machiavelli and "draw a card" in machiavelli
    assert "knock" not in TILES_HELP and "card" not in TILES_HELP.lower() and "knock" in HELP


# -- every command, Rummikub ----------------------------------------------------------


def test_hint_shows_tiles() -> None:
    shown = rummikub_text(invoke(["hint", "/ 10s Js Qs Ks Kh Kd *", "-v", "rummikub"]))
    assert "Rack  k10 k11 k12 k13 r13 b13 ★" in shown
    assert "k13 r13 b13 ★o13" in shown and "from your rack" in shown
    position = "5h 6h 7h | 9s 9d 9c / 8h 9h Kc Kd Ks 4h"
    other = invoke(["hint", position, "-v", "rummikub", "--alternatives", "2"])
    assert "table: r5 r6 r7 r8 r9" in rummikub_text(other)


def test_hint_batch_shows_tiles_and_echoes_bad_lines_as_typed(tmp_path: Path) -> None:
    lines = tmp_path / "positions.txt"
    lines.write_text(f"{KINGS}\n/ 10s Js Qs\nQh Kx / Ac\n", encoding="utf-8")
    outcome = runner.invoke(app, ["hint", "--batch", str(lines), "-v", "rummikub"])
    assert outcome.exit_code == 2
    shown = outcome.stdout
    assert "1: no play: the table stays r11 b11 o11 | r12 b12 o12 | r13 b13 o13; rack o1, 1 point" in shown
    assert "2: play k10 k11 k12 -> k10 k11 k12; rack (empty)" in shown
    assert "3: error: bad position 'Qh Kx / Ac'" in shown  # what was typed, as typed
    # ... and the rest in the game's words, as for one position (it said "bad card", "suit").
    assert "bad tile 'Kx': unknown colour 'x'" in shown and "card" not in shown and "suit" not in shown


def test_check_and_show_show_tiles() -> None:
    legal = invoke(["check", "7h 8h *9h / 9h 5c 5d", "7h 8h 9h | 5c 5d *5s", "-v", "rummikub"])
    assert rummikub_text(legal).startswith("legal: r7 r8 r9 | ★k5 b5 o5")
    illegal = invoke(["check", "7h 8h *9h / 9h 5c 5d", "7h 8h 9h | 5c 5d *5c", "-v", "rummikub"], code=1)
    assert "o5 appears twice" in rummikub_text(illegal)
    shown = rummikub_text(invoke(["show", "Kh Kd Kc | *Qh Qd Qc / Ac *", "-v", "rummikub"]))
    assert "2. ★r12 b12 o12" in shown and "Rack  o1 ★" in shown and "Rack points: 31" in shown


def test_analyze_shows_tiles_and_no_knocking() -> None:
    shown = invoke(["analyze", "5h 6h 7h | Kc Kd Ks / 8h 2c 9d 12d *", "-v", "rummikub", "--draws"])
    assert "Playable tiles now" in rummikub_text(shown) and "│ o13 " in shown


def test_advise_shows_tiles() -> None:
    shown = invoke(["advise", JOKERS, "-v", "rummikub", "--samples", "2", "--budget", "5", "--players", "2"])
    assert "Position  k5 k6 k7 | b11 b12 b13 | r9 b9 o9 / k8 k9 b2 o2 ★" in rummikub_text(shown)


def test_puzzle_shows_tiles_and_keeps_the_position_to_paste(tmp_path: Path) -> None:
    solutions = tmp_path / "solutions.txt"
    args = ["puzzle", "-v", "rummikub", "--seed", "1", "--difficulty", "hard", "--solutions"]
    shown = invoke([*args, "--solutions-to", str(solutions)])
    notation = next(line for line in shown.splitlines() if line.startswith("Position (notation): "))
    position = Position.parse(notation.removeprefix("Position (notation): "))
    rummikub_text(shown.replace(notation, ""))
    assert "Rearrangements" in shown and "from your rack" in shown
    saved = solutions.read_text(encoding="utf-8")
    assert notation in saved and rummikub_text(saved.replace(notation, ""))
    assert position.hand.pieces


def test_play_replay_and_review_show_tiles(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    script = "help\nhint\nshow\n+ 2s 3s 4s\nundo\ndraw\ndraw\nquit\n"
    args = ["play", "--variant", "rummikub", "--bots", "greedy", "--seed", "3", "--log", str(log)]
    played = invoke(args, input=script)
    help_part = played[played.index("Commands (one per line)") : played.index("Hint: play")]
    rest = played.replace(help_part, "")
    rummikub_text(rest)  # the help's examples are notation, to type; the rest shows tiles
    assert "Bot 1 (greedy) melds k11 k12 r10 r11 r12 ★k13." in played
    assert "from their rack" in played and "14 tiles" in played
    assert "N + TILES" in played and "Hint: play k1 k2 k3 b10 b11 b12" in played
    assert "(100 points, 14 tiles)" in played and "You draw o12." in played
    shown = rummikub_text(invoke(["replay", "--show", str(log)]))
    assert "greedy (seat 1): k4 k7 k11 k12 r10 r11 r12 b8 b9 b13 b13 o6 o9 ★" in shown
    reviewed = invoke(["review", str(log), "--budget", "0.05", "--samples", "2", "--seat", "1"])
    assert "play r10 k11 r11 k12" in rummikub_text(reviewed)


def test_tournament_and_match_have_no_knock_columns_without_knocking() -> None:
    for variant in ("rummikub", "machiavelli"):
        shown = invoke(["tournament", "--games", "1", "--bots", "greedy,random", "-v", variant])
        assert "knock" not in shown and "undercut" not in shown and "moves" in shown
    assert "knocks" in invoke(["tournament", "--games", "1", "--bots", "greedy,random"])
    matched = invoke(["match", "greedy", "random", "-v", "rummikub", "--pairs", "1", "--seed", "1"])
    assert "knock" not in matched and "undercut" not in matched and "draws" in matched


# -- the card games and --json: unchanged -----------------------------------------------


def test_manipulation_still_shows_cards() -> None:
    shown = invoke(["show", "Kh Kd Kc | *Qh Qd Qc / Ac * 5s"])
    expected = ["Table", "   1. K♥ K♦ K♣", "   2. ★Q♥ Q♦ Q♣", "Hand  5♠ A♣ ★"]
    expected.append("Hand points: 31   (manipulation; 3 players (assumed): 2 decks, 2 jokers)")
    assert shown.splitlines() == expected
    # a Rummikub command before does not leave its tiles behind
    invoke(["show", "Kh Kd Kc / Ac", "-v", "rummikub"])
    assert invoke(["show", "Kh Kd Kc | *Qh Qd Qc / Ac * 5s"]) == shown
    shown = invoke(["hint", KINGS])
    assert "1. Meld 1 becomes new meld 1, J♥ Q♥ K♥: take out K♦ for new meld 2" in shown
    assert "Hand left  (empty)" in shown and not TILE.search(shown)
    analysis = invoke(["analyze", "5h 6h 7h | Kc Kd Ks / 8h 2c 9d"])
    assert "Next card lets you knock" in analysis and "Playable cards now" in analysis
    played = invoke(["play", "--bots", "greedy", "--seed", "1"], input="help\nquit\n")
    assert "knock          end the round" in played


def test_machiavelli_shows_cards_and_no_knocking() -> None:
    analysis = invoke(["analyze", "5h 6h 7h | Kc Kd Ks / 8h 2c 9d", "-v", "machiavelli"])
    assert "♥" in analysis and "card" in analysis and "knock" not in analysis.lower()
    args = ["play", "-v", "machiavelli", "--bots", "greedy", "--seed", "1"]
    played = invoke(args, input="help\nhint\ndraw\nquit\n")
    assert "♥" in played or "♠" in played
    assert "knock" not in played.lower()


@pytest.mark.parametrize("variant", ["manipulation", "rummikub"])
def test_json_keeps_the_notation(variant: str) -> None:
    position = "/ 10s Js Qs Ks Kh Kd *"
    payload = json.loads(invoke(["hint", position, "-v", variant, "--json"]))
    rules = Variant.named(variant)
    typed = Position.parse(position, keep_order=True)
    assert payload == {**hint_payload(hint(position, variant=rules), before=typed), "stats": payload["stats"]}
    shown = json.loads(invoke(["show", KINGS, "-v", variant, "--json"]))
    assert shown["hand"] == ["Ac"] and not TILE.search(json.dumps(shown))
    assert CARD_NAME.search(json.dumps(payload))


def test_rummikub_tiles_can_be_typed_back() -> None:
    """Issue 37: the commands print ``k13 r13 b13`` and typing them gave "bad card 'k13':
    unknown rank 'k1'"; what is printed reads back, in the CLI and over HTTP."""
    shown = invoke(["hint", "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / 10h 10d", "-v", "rummikub"])
    typed = "r13 b13 o13 | r12 b12 o12 | r11 b11 o11 / r10 b10"
    again = invoke(["hint", typed, "-v", "rummikub"])
    assert again == shown
    bad = CliRunner().invoke(app, ["hint", "k14 / r1", "-v", "rummikub"])
    assert bad.exit_code == 2 and bad.stderr.count("\n") == 1
    assert "a tile is its colour (k black, r red, b blue, o orange) and its number 1-13" in bad.stderr

    from fastapi.testclient import TestClient

    from service import create_app
    from service.settings import Settings

    with TestClient(create_app(Settings(executor="thread", workers=1))) as client:
        answer = client.post("/v1/hint", json={"position": typed, "variant": "rummikub"})
        assert answer.status_code == 200
        assert answer.json()["position"] == str(Position.parse("Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / 10h 10d"))


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ["hint", "r12 r13 r1 / k2"],
            "bad position 'r12 r13 r1 / k2': table meld r12 r13 r1: an ace (1) cannot follow a king (13)",
        ),
        (["show", "/ g5"], "bad tile 'g5'"),
        (["hint", "Qh Kh Ah / 2s"], "bad position 'Qh Kh Ah / 2s': table meld r12 r13 r1"),
    ],
)
def test_a_rummikub_error_names_tiles_and_keeps_what_was_typed(args: list[str], said: str) -> None:
    """Errors said the library's card names (``table meld Qh Kh Ah``) in a game of tiles."""
    outcome = runner.invoke(app, [*args, "-v", "rummikub"])
    assert outcome.exit_code == 2
    assert outcome.stderr.startswith("error: ") and said in outcome.stderr
    assert outcome.stderr.count("\n") == 1
    if "g5" in args[1]:
        assert "a tile is its colour" in outcome.stderr


def test_a_card_game_error_is_unchanged() -> None:
    outcome = runner.invoke(app, ["hint", "Qh Kh Ah / 2s"])
    assert outcome.exit_code == 1 and outcome.stderr == ""  # ace-high: a legal run (no play here)
    outcome = runner.invoke(app, ["show", "/ g5"])
    assert outcome.stderr.startswith("error: bad position '/ g5': bad card 'g5'")
    assert "tile" not in outcome.stderr


def test_a_joker_before_a_comma_is_shown_as_a_joker() -> None:
    """Advice labels read ``play 8♠ 9♠ *, then knock`` where every other joker showed ★."""
    from solver.cli.faces import CARDS

    assert CARDS.pieces("play 8s 9s *, then knock").plain == "play 8♠ 9♠ ★, then knock"
