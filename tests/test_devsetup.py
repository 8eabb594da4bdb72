"""The README's two commands on a fresh machine: ``dev.py`` sets everything up itself.

``python3 dev.py test`` must do all the set-up that CI does (Chromium for the browser
tests included), and ``.ci/run`` must call exactly that command.  The set-up is tested
with a fake command runner, so nothing is installed here.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _load_dev() -> ModuleType:
    spec = importlib.util.spec_from_file_location("dev_script", ROOT / "dev.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["dev_script"] = module
    spec.loader.exec_module(module)
    return module


dev = _load_dev()


class Recorder:
    """A command runner that records the commands and answers with fixed exit codes."""

    def __init__(self, code: int = 0, on_run: object = None) -> None:
        self.commands: list[list[str]] = []
        self.code = code
        self.on_run = on_run

    def __call__(self, command: Sequence[str]) -> int:
        self.commands.append(list(command))
        if callable(self.on_run):
            self.on_run(command)
        return self.code


def _which(*present: str) -> object:
    return lambda name: f"/usr/bin/{name}" if name in present else None


@pytest.fixture
def no_browser(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    browser = tmp_path / "chromium"
    monkeypatch.setenv("RUMMY_CHROMIUM", str(browser))
    monkeypatch.delenv("RUMMY_SKIP_BROWSER", raising=False)
    return browser


def test_readme_commands_are_the_dev_jobs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first_block = readme.split("```bash", 1)[1].split("```", 1)[0]
    assert "python3 dev.py hint" in first_block
    assert "python3 dev.py test" in first_block


def test_ci_calls_exactly_the_readme_test_command_and_installs_nothing_itself() -> None:
    lines = [
        line.strip()
        for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    assert "python3 dev.py test" in lines
    assert not any("apt-get" in line or "chromium" in line for line in lines)
    after = lines[lines.index("python3 dev.py test") + 1 :]
    assert any(line.startswith(".venv/bin/ruff check") for line in after)
    assert ".venv/bin/ruff format --check ." in after
    assert any(line.startswith(".venv/bin/mypy solver service") for line in after)


def test_dev_py_uses_the_standard_library_only() -> None:
    source = (ROOT / "dev.py").read_text(encoding="utf-8")
    imported = set(re.findall(r"^(?:import|from) ([a-zA-Z_]+)", source, flags=re.MULTILINE))
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}


def test_browser_present_needs_no_install(no_browser: Path) -> None:
    no_browser.write_text("")
    runner = Recorder()
    assert dev.ensure_browser(runner, _which("apt-get", "sudo"), lambda: False)
    assert runner.commands == []


def test_missing_browser_is_installed_as_root(no_browser: Path) -> None:
    runner = Recorder(on_run=lambda command: "install" in command and no_browser.write_text(""))
    assert dev.ensure_browser(runner, _which("apt-get"), lambda: True)
    assert runner.commands[0][-2:] == ["update", "-q"]
    assert runner.commands[1][-1] == "chromium" and "install" in runner.commands[1]
    assert all(command[0] == "env" for command in runner.commands)


def test_missing_browser_is_installed_with_sudo(no_browser: Path) -> None:
    runner = Recorder(on_run=lambda command: "install" in command and no_browser.write_text(""))
    assert dev.ensure_browser(runner, _which("apt-get", "sudo"), lambda: False)
    assert all(command[0] == "sudo" for command in runner.commands)


@pytest.mark.parametrize(
    ("present", "root", "why"),
    [
        ((), True, "no apt-get"),
        (("apt-get",), False, "sudo is missing"),
    ],
)
def test_browser_that_cannot_be_installed_gets_a_clear_message(
    no_browser: Path, capsys: pytest.CaptureFixture[str], present: tuple[str, ...], root: bool, why: str
) -> None:
    runner = Recorder()
    assert not dev.ensure_browser(runner, _which(*present), lambda: root)
    assert runner.commands == []
    message = capsys.readouterr().err
    assert why in message
    assert str(no_browser) in message
    assert "RUMMY_SKIP_BROWSER=1 python3 dev.py test" in message


def test_failed_install_is_reported(no_browser: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert not dev.ensure_browser(Recorder(code=100), _which("apt-get"), lambda: True)
    assert "apt-get update -q failed" in capsys.readouterr().err


def test_apt_output_goes_to_a_log_not_the_terminal(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "logs" / "apt-get.log"
    code = dev.run_logged(
        [sys.executable, "-c", "print('Reading package lists...'); raise SystemExit(3)"], log
    )
    assert code == 3
    assert capfd.readouterr().out == ""
    assert "Reading package lists..." in log.read_text()


def test_an_unknown_job_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    assert dev.main(["foo"]) == 2
    err = capsys.readouterr().err
    assert "unknown job 'foo': the jobs are hint, test, rummy" in err
    assert "python3 dev.py test" in err


def test_skip_browser_checks_nothing(no_browser: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RUMMY_SKIP_BROWSER", "1")
    runner = Recorder()
    assert dev.ensure_browser(runner, _which(), lambda: False)
    assert runner.commands == []


def test_test_job_stops_before_set_up_without_a_browser(
    no_browser: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dev.shutil, "which", lambda name: None)
    monkeypatch.setattr(dev, "ensure_environment", lambda: pytest.fail("set up before the browser check"))
    assert dev.main(["test"]) == 1


def test_set_up_says_what_it_is_doing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    venv_dir = tmp_path / ".venv"
    monkeypatch.setattr(dev, "VENV", venv_dir)
    monkeypatch.setattr(dev, "BIN", venv_dir / "bin")
    monkeypatch.setattr(dev, "STAMP", venv_dir / ".installed-from")
    monkeypatch.setattr(dev, "HEARTBEAT_SECONDS", 0.05)
    monkeypatch.setattr(dev.venv, "create", lambda path, with_pip: (venv_dir / "bin").mkdir(parents=True))

    def slow_pip(command: Sequence[str]) -> int:
        import time

        time.sleep(0.2 if "-e" in command else 0)
        return 0

    dev.ensure_environment(slow_pip)
    said = capsys.readouterr().err
    for step in ("[1/3] creating", "[2/3] upgrading pip", "[3/3] installing the project", "about a minute"):
        assert step in said
    assert "still installing packages" in said
    assert said.rstrip().endswith(".venv is ready")
    # Current: nothing more to do, nothing said.
    dev.ensure_environment(slow_pip)
    assert capsys.readouterr().err == ""


def test_failed_install_stops_with_its_exit_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    venv_dir = tmp_path / ".venv"
    (venv_dir / "bin").mkdir(parents=True)
    (venv_dir / "bin" / "python").write_text("")
    monkeypatch.setattr(dev, "VENV", venv_dir)
    monkeypatch.setattr(dev, "BIN", venv_dir / "bin")
    monkeypatch.setattr(dev, "STAMP", venv_dir / ".installed-from")
    with pytest.raises(SystemExit) as stopped:
        dev.ensure_environment(Recorder(code=3))
    assert stopped.value.code == 3
    assert "failed while upgrading pip" in capsys.readouterr().err
    assert not (venv_dir / ".installed-from").exists()


def test_every_c_source_of_the_fast_path_decides_a_new_install() -> None:
    """A change to the points program or the header the modules share must rebuild them,
    as a change to the search does."""
    names = {path.name for path in dev.compiled_sources()}
    assert {"module.c", "moves.c", "lp_bound.h", "_points.c", "_read_counts.h"} <= names


@pytest.fixture
def no_postgres(tmp_path: Path) -> Path:
    """Debian's PostgreSQL folder, empty (tests pass it to ``ensure_postgres``)."""
    return tmp_path / "postgresql"


def _install_postgres(debian: Path) -> object:
    """What apt-get install postgresql leaves: Debian's initdb, off PATH."""

    def on_run(command: Sequence[str]) -> None:
        if "install" in command:
            (debian / "15" / "bin").mkdir(parents=True)
            (debian / "15" / "bin" / "initdb").write_text("")

    return on_run


def test_postgres_present_needs_no_install(no_postgres: Path) -> None:
    (no_postgres / "15" / "bin").mkdir(parents=True)
    (no_postgres / "15" / "bin" / "initdb").write_text("")
    runner = Recorder()
    assert dev.ensure_postgres(runner, _which("apt-get"), lambda: True, no_postgres)
    assert dev.ensure_postgres(runner, _which("apt-get", "initdb"), lambda: True, no_postgres / "none")
    assert runner.commands == []


def test_missing_postgres_is_installed_as_root(no_postgres: Path, capsys: pytest.CaptureFixture[str]) -> None:
    runner = Recorder(on_run=_install_postgres(no_postgres))
    assert dev.ensure_postgres(runner, _which("apt-get"), lambda: True, no_postgres)
    assert runner.commands[0][-2:] == ["update", "-q"]
    assert runner.commands[1][-1] == "postgresql" and "install" in runner.commands[1]
    assert all(command[0] == "env" for command in runner.commands)
    said = capsys.readouterr().err
    assert "installing Debian's postgresql" in said and str(dev.APT_LOG) in said


def test_missing_postgres_is_installed_with_sudo(no_postgres: Path) -> None:
    runner = Recorder(on_run=_install_postgres(no_postgres))
    assert dev.ensure_postgres(runner, _which("apt-get", "sudo"), lambda: False, no_postgres)
    assert all(command[0] == "sudo" for command in runner.commands)


@pytest.mark.parametrize(
    ("present", "root", "code", "why"),
    [
        ((), True, 0, "no apt-get"),
        (("apt-get",), False, 0, "sudo is missing"),
        (("apt-get",), True, 100, "apt-get update -q failed"),
        (("apt-get",), True, 0, "initdb is in neither PATH nor"),  # installed, still not there
    ],
)
def test_postgres_that_cannot_be_installed_gets_a_clear_message(
    no_postgres: Path,
    capsys: pytest.CaptureFixture[str],
    present: tuple[str, ...],
    root: bool,
    code: int,
    why: str,
) -> None:
    assert not dev.ensure_postgres(Recorder(code=code), _which(*present), lambda: root, no_postgres)
    message = capsys.readouterr().err
    assert why in message
    assert "sudo apt-get install postgresql" in message


def test_test_job_stops_before_set_up_without_postgres(
    no_browser: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    no_browser.write_text("")
    monkeypatch.setattr(dev.shutil, "which", lambda name: None)
    monkeypatch.setattr(dev, "POSTGRES_ROOT", no_browser.parent / "postgresql")
    monkeypatch.setattr(dev, "ensure_environment", lambda: pytest.fail("set up before the PostgreSQL check"))
    assert dev.main(["test"]) == 1
