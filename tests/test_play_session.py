"""A game played one request at a time (``solver.play``): rebuilt from its entries, moved on
by the human's action and the bots' turns, with help, advice, review, export and import."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from playkit import human_action
from typer.testing import CliRunner

from solver.cli import app
from solver.game import Draw, GameSettings, Play
from solver.play.coach import advice_seed, give_advice, review_game
from solver.play.errors import BadSetup, CorruptGame, GameOver, IllegalPlay, NotOver, NotYourTurn
from solver.play.helps import give_help
from solver.play.logs import export_log, import_log
from solver.play.session import HUMAN, Entry, GameSetup, Session
from solver.play.state import game_state
from solver.position import Table

VARIANTS = ("manipulation", "machiavelli", "rummikub")


def play_to_the_end(
    setup: GameSetup, *, rebuild_every: int = 7, helps: bool = True
) -> tuple[Session, list[Entry]]:
    """Play the game with the greedy choice as the human's, one request at a time: the
    session is rebuilt from the kept entries every few actions (and must then tell the
    game exactly as the session that played it), and help levels 1-3 are asked in turn."""
    entries: list[Entry] = []
    session = Session(setup)
    entries += session.run_bots()
    for number in range(10_000):
        if session.over:
            return session, entries
        if number % rebuild_every == 0:
            rebuilt = Session(setup, entries)
            assert game_state(rebuilt) == game_state(session)
            session = rebuilt
        if helps and number % 5 == 1:
            entry, _ = give_help(session, 1 + number % 3)
            entries.append(entry)
        entries += session.act(human_action(session.view))
    raise AssertionError("the game did not end")


def decisions(entries: list[Entry]) -> list[tuple[str, dict[str, Any]]]:
    """The entries without the milliseconds each decision took (the only part that varies)."""
    return [(kind, {key: value for key, value in data.items() if key != "ms"}) for kind, data in entries]


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_whole_game_against_a_bot_replays_from_its_entries(variant: str) -> None:
    setup = GameSetup.new(variant, 2, ["expert"], 7)
    session, entries = play_to_the_end(setup)
    state = game_state(session)
    assert state["over"] and state["phase"] == "over" and state["result"] is not None
    assert state["turn"] == len(entries) == len(session.entries)
    levels = [use["level"] for use in state["help_used"]]
    assert levels == [1 + n % 3 for n in range(1, 5 * len(levels), 5)]
    assert state["help_used"] and all(entries[use["turn"]][0] == "help" for use in state["help_used"])
    assert game_state(Session(setup, entries)) == state
    # The same game again: the bots decide the same way (their generators come from the game).
    assert decisions(play_to_the_end(setup)[1]) == decisions(entries)


def test_the_bots_chances_come_from_the_game_s_actions_not_its_helps() -> None:
    """The random bot draws from its generator at every decision: the same game gives the
    same actions with or without the human's helps, and another seed another game."""
    setup = GameSetup.new("machiavelli", 3, ["random", "random"], 13)
    helped = decisions(play_to_the_end(setup)[1])
    assert any(kind == "help" for kind, _ in helped)
    actions = [entry for entry in helped if entry[0] == "action"]
    assert decisions(play_to_the_end(setup, helps=False)[1]) == actions
    other = GameSetup.new("machiavelli", 3, ["random", "random"], 14)
    assert decisions(play_to_the_end(other, helps=False)[1]) != actions


def test_the_bots_move_until_the_human_decides_and_their_turns_are_told() -> None:
    setup = GameSetup.new("rummikub", 3, ["greedy", "expert"], 3, seat=1)
    session = Session(setup)
    session.run_bots()
    session.act(human_action(session.view))
    state = game_state(session)
    if not state["over"]:
        assert state["to_move"] == 1 and state["phase"] == "meld"
        assert [turn["seat"] for turn in state["bot_turns"]] == [2, 0]  # every bot, in turn order
    for turn in state["bot_turns"]:
        assert turn["name"] == setup.players[turn["seat"]] and turn["kind"] in ("play", "draw")
        assert turn["cards_after"] == state["players"][turn["seat"]]["cards"] or turn["seat"] == 2
        if turn["kind"] == "play":
            assert turn["steps"] and all("your hand" not in step for step in turn["steps"])
        else:
            assert turn["steps"] == []
    assert state["players"][1]["name"] == HUMAN
    assert all(piece[0] in "krbo★" for meld in state["table"] for piece in meld)  # tiles, as people read them
    assert (
        Table.parse(state["table_text"]).pieces
        == Table.parse(" | ".join(" ".join(m) for m in state["table"])).pieces
    )


def test_a_refused_action_changes_nothing_and_says_why() -> None:
    setup = GameSetup.new("manipulation", 2, ["greedy"], 5)
    session = Session(setup)
    session.run_bots()
    before = game_state(session)
    entries = list(session.entries)
    not_held = Play(Table.parse(f"{before['table_text']} | Ks Kh Kd".strip(" |")))
    with pytest.raises(IllegalPlay) as refused:
        session.act(not_held)
    assert any("neither on the table nor in the hand" in reason for reason in refused.value.reasons)
    removed = Play(Table.parse("7h 8h 9h")) if before["table"] else None
    if removed is not None:
        with pytest.raises(IllegalPlay):
            session.act(removed)
    assert session.entries == entries and game_state(session) == before
    assert game_state(Session(setup, entries)) == before


def test_acting_out_of_turn_or_after_the_end_is_refused() -> None:
    setup = GameSetup.new("machiavelli", 2, ["greedy"], 1)
    session = Session(setup)
    if session.game.to_move != session.human:  # the bot starts: before its turn runs, the human waits
        with pytest.raises(NotYourTurn, match="greedy's turn"):
            session.act(Draw())
        with pytest.raises(NotYourTurn):
            give_help(session, 1)
        assert session.entries == []
    finished, _ = play_to_the_end(setup, helps=False)
    with pytest.raises(GameOver):
        finished.act(Draw())
    with pytest.raises(GameOver):
        give_help(finished, 2)


def test_an_opponent_is_a_bot_of_the_registry_never_a_path(tmp_path: Path) -> None:
    planted = tmp_path / "evil.py"
    marker = tmp_path / "ran"
    planted.write_text(f"open({str(marker)!r}, 'w').close()\n")
    for spec in (f"{planted}:Bot", "solver.strategy.bots:GreedyBot", "Greedy ", "nobody"):
        with pytest.raises(BadSetup, match="unknown opponent"):
            GameSetup.new("rummikub", 2, [spec], 1)
    assert not marker.exists()
    with pytest.raises(BadSetup, match="need 2 opponents"):
        GameSetup.new("rummikub", 3, ["greedy"], 1)
    with pytest.raises(BadSetup, match="seat 3"):
        GameSetup.new("rummikub", 3, None, 1, seat=3)
    with pytest.raises(BadSetup, match="unknown variant"):
        GameSetup.new("poker", 2, None, 1)
    assert GameSetup.new("rummikub", 3, None, 1, seat=2).players == ("pimc", "pimc", HUMAN)


def entries_of(setup: GameSetup) -> list[Entry]:
    session = Session(setup)
    entries = session.run_bots()
    for _ in range(3):
        entries += session.act(human_action(session.view))
    return entries


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda e: e[-1][1].update(seat=7), "seat 7 acts"),
        (lambda e: e[-1][1].update(action={"type": "knock"}), "illegal knock"),
        (lambda e: e[-1][1].update(action={"type": "fly"}), "unknown action type"),
        (lambda e: e[-1][1].update(ms="slow"), "ms must be"),
        (lambda e: e.append(("dance", {})), "unknown kind 'dance'"),
        (lambda e: e.append(("help", {"level": 4, "turn": 1})), "help level 4"),
        (lambda e: e.insert(0, ("quit", {"seat": 0})), "after the game was left"),
    ],
)
def test_entries_that_do_not_replay_are_refused_naming_the_entry(change: Any, words: str) -> None:
    setup = GameSetup.new("rummikub", 2, ["greedy"], 4)
    entries = copy.deepcopy(entries_of(setup))
    change(entries)
    with pytest.raises(CorruptGame, match=f"entry \\d+: .*{words}"):
        Session(setup, entries)


def test_help_grows_with_its_level_and_is_what_the_engine_finds() -> None:
    setup = GameSetup.new("manipulation", 2, ["greedy"], 2)
    session = Session(setup)
    session.run_bots()
    answers = [give_help(session, level)[1] for level in (1, 2, 3)]
    assert [entry for entry in session.entries if entry[0] == "help"] == [
        ("help", {"level": level, "turn": session.entries.index(("help", {"level": level, "turn": n}))})
        for level, n in zip((1, 2, 3), range(len(session.entries) - 3, len(session.entries)), strict=True)
    ]
    one, two, three = answers
    assert one["exists"] == two["exists"] == three["exists"]
    assert one["points_left"] == two["points_left"] == three["points_left"]
    assert one["cards"] is None and one["steps"] is None and one["table"] is None
    assert two["cards"] is not None and two["steps"] is None
    if three["exists"]:
        assert three["steps"] and three["table"]
        played = session.act(Play(Table.parse(three["table"], keep_order=True)))  # the help is a legal play
        assert played[0][1]["action"]["table"] == three["table"]  # kept in the order shown
    with pytest.raises(ValueError, match="levels are 1, 2 and 3"):
        give_help(session, 4)


def test_export_is_the_log_rummy_replay_reads_and_import_rebuilds_the_game(tmp_path: Path) -> None:
    setup = GameSetup.new("rummikub", 2, ["expert"], 9)
    session, entries = play_to_the_end(setup, helps=False)
    log = export_log(session)
    path = tmp_path / "game.jsonl"
    path.write_text(log)
    replayed = CliRunner().invoke(app, ["replay", str(path), "--json"])
    assert replayed.exit_code == 0, replayed.output
    assert '"ok": true' in replayed.stdout
    imported, kept = import_log(log)
    assert imported == setup and len(kept) == len(session.turns)
    assert game_state(Session(imported, kept)) == {**game_state(session), "help_used": [], "turn": len(kept)}
    # Half a game exports and imports too: the log stops where the game is.
    half = Session(setup, entries[: len(entries) // 2])
    again = Session(*import_log(export_log(half)))
    assert game_state(again)["table_text"] == game_state(half)["table_text"]


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (lambda lines: lines[:0], "the log is empty"),
        (lambda lines: ["not json", *lines[1:]], "line 1"),
        (lambda lines: [lines[0].replace('"seed": 9', '"seed": 10'), *lines[1:]], "does not replay"),
        (lambda lines: [lines[0].replace('"seed": 9', f'"seed": {2**60}'), *lines[1:]], "does not replay"),
        (lambda lines: [*lines[:3], lines[4], lines[3], *lines[5:]], "does not replay"),
    ],
)
def test_a_corrupt_log_is_refused_with_the_line_and_the_problem(edit: Any, words: str) -> None:
    setup = GameSetup.new("rummikub", 2, ["greedy"], 9)
    lines = export_log(Session(setup, entries_of(setup))).splitlines()
    with pytest.raises(CorruptGame, match=words):
        import_log("\n".join(edit(lines)))


def test_a_rebuilt_search_bot_remembers_what_it_saw() -> None:
    setup = GameSetup.new("machiavelli", 2, ["pimc"], 3)
    session = Session(setup)
    entries = session.run_bots()
    for _ in range(4):
        if session.over:
            break
        entries += session.act(human_action(session.view))
    played = session._bot(1)
    rebuilt = Session(setup, entries)._bot(1)
    assert played.opponents == rebuilt.opponents  # type: ignore[attr-defined]
    for memory in ("_round", "_my_cards", "_last_card_mine"):
        assert getattr(played, memory) == getattr(rebuilt, memory), memory


def test_advice_and_the_review_coach_the_human_seat() -> None:
    setup = GameSetup.new("machiavelli", 2, ["greedy"], 5)
    session = Session(setup)
    session.run_bots()
    with pytest.raises(NotOver):
        review_game(session)
    turn = session.turn
    entry, advice = give_advice(session, samples=4, budget_seconds=10)
    assert entry == ("advice", {"turn": len(session.entries) - 1})
    assert advice["options"] and advice["facts"]["players"] == 2
    # The answer names its seed; the game's own (every deal, with the code) stays hidden.
    assert advice["seed"] == advice_seed(5, turn) != 5
    finished, _ = play_to_the_end(setup, helps=False)
    found = review_game(finished, samples=2)
    assert found["seat"] == 0 and found["player"] == HUMAN
    assert 0 <= found["accuracy"] <= 100 and set(found["bands"]) == {"ok", "inaccuracy", "mistake", "blunder"}
    assert all({"round", "turn", "played", "best", "loss", "band"} <= set(d) for d in found["decisions"])
    if found["decisions"]:
        assert found["plot_svg"].lstrip().startswith("<?xml") and "<svg" in found["plot_svg"]
    assert isinstance(found["puzzles"], list)


def test_advice_at_a_knock_decision_weighs_knock_or_pass() -> None:
    """The Play tab's Advice at a knock decision: knock against pass, from the game's facts
    (it answered "no decision" before ``advise(decision="knock")``)."""
    settings = GameSettings.manipulation(2)
    for seed in range(40):  # a seed whose game gives the human a knock decision early
        session = Session(GameSetup(settings, seed, ("greedy", HUMAN), 1))
        session.run_bots()
        for _ in range(30):
            if session.over or session.view.phase == "knock":
                break
            session.act(human_action(session.view))
        if not session.over and session.view.phase == "knock":
            _, found = give_advice(session, samples=2)
            assert found["decision"] == "knock"
            assert sorted(option["kind"] for option in found["options"]) == ["knock", "pass"]
            return
    raise AssertionError("no knock decision in the games of seeds 0-39")
