"""User bots by name: ``module:Class`` from the current directory (no ``PYTHONPATH=.``
needed) and ``path/to/file.py:Class`` (issue 20), with one-line errors otherwise."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from solver.strategy import Bot, make_bot

BOT_SOURCE = """
from solver.game import Action, Knock, Pass, Play, PlayerView
from solver.strategy import Bot


class Cautious(Bot):
    name = "cautious"

    def act(self, view: PlayerView) -> Action:
        if view.phase == "knock":
            return Knock() if view.hand_points <= 2 else Pass()
        found = self.best_play(view)
        if found.has_play and (found.goes_out or found.hand_points <= 10):
            return Play(found.table)
        return view.decline()


NOT_A_BOT = 3
"""

RUMMY = Path(sys.executable).with_name("rummy")


@pytest.fixture
def bot_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A directory holding the bot file, made the current directory."""
    (tmp_path / "cautious_user_bot.py").write_text(BOT_SOURCE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_bot_from_an_absolute_file_path(bot_dir: Path) -> None:
    bot = make_bot(f"{bot_dir / 'cautious_user_bot.py'}:Cautious")
    assert isinstance(bot, Bot) and bot.name == "cautious"


def test_bot_from_a_relative_file_path_is_loaded_once(bot_dir: Path) -> None:
    first = make_bot("./cautious_user_bot.py:Cautious")
    second = make_bot("cautious_user_bot.py:Cautious")
    assert type(first) is type(second)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("./missing_bot.py:Cautious", "no file"),
        ("./cautious_user_bot.py:Careless", "has no Careless"),
        ("./cautious_user_bot.py:NOT_A_BOT", "not a subclass"),
        ("no_such_bot_module:Cautious", "No module named 'no_such_bot_module'"),
        (":Cautious", "give module:Class or path/to/file.py:Class"),
    ],
)
def test_bad_bot_specs_say_what_is_wrong(bot_dir: Path, spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_bot(spec)


def test_a_bot_file_that_fails_to_load_is_a_value_error(bot_dir: Path) -> None:
    (bot_dir / "broken_bot.py").write_text("raise RuntimeError('boom')\n", encoding="utf-8")
    with pytest.raises(ValueError, match="RuntimeError: boom"):
        make_bot("./broken_bot.py:Cautious")


def _bare_env(home: Path) -> dict[str, str]:
    """No ``PYTHONPATH=.``; but the suite's own ``PYTHONPATH``, if it runs with one, is kept,
    so that the script (whose install may be another checkout's) runs the code under test."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home)}
    if "PYTHONPATH" in os.environ:
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return env


@pytest.mark.parametrize("spec", ["cautious_user_bot:Cautious", "./cautious_user_bot.py:Cautious"])
def test_rummy_loads_a_bot_from_the_current_directory(bot_dir: Path, spec: str) -> None:
    """The installed ``rummy`` script, run where the bot file lies, without ``PYTHONPATH=.``
    (the checkout under test is passed on: ``_bare_env``)."""
    env = _bare_env(bot_dir)
    command = [str(RUMMY), "tournament", "--games", "1", "--bots", f"{spec},random"]
    args = [*command, "--variant", "machiavelli", "--seed", "2", "--json"]
    done = subprocess.run(args, cwd=bot_dir, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["games"] == 1


def test_rummy_bad_bot_is_a_one_line_error(bot_dir: Path) -> None:
    env = _bare_env(bot_dir)
    args = [str(RUMMY), "tournament", "--games", "1", "--bots", "./nowhere.py:Cautious,random"]
    done = subprocess.run(args, cwd=bot_dir, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2
    assert done.stderr.startswith("error: cannot load bot './nowhere.py:Cautious'")
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("returned", [None, "draw"])
def test_a_bot_that_returns_no_action_is_named(returned: object) -> None:
    """A custom bot's ``act`` returning None or a string failed deep in the game with
    ``AttributeError: ... 'kind'``."""
    from solver.game import GameSettings, play_game
    from solver.strategy.bots import Bot

    class Careless(Bot):
        name = "careless"

        def act(self, view: object) -> object:  # type: ignore[override]
            return returned

    settings = GameSettings.manipulation(2)
    from solver.game.runner import PlayerError

    with pytest.raises(PlayerError, match=r"seat \d \(Careless\) returned .* not an action: Play"):
        play_game(settings, [Careless(), Careless()], seed=1)  # type: ignore[list-item]
