"""``python -m benchmarks.strength --variant V``: the family's cross table, its quick path, the
README block between markers."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]  # benchmarks/ ships with the repository
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.strength import main as strength_main  # noqa: E402
from benchmarks.strength_family import FOCUS, Row, cells, render, write_readme  # noqa: E402
from solver.game.settings import PRESET_NAMES  # noqa: E402

META: Row = {"date": "today", "cpu": "cpu", "jobs": 2, "machine_cores": 2, "seed": 5, "variant": "rummikub"}


def _row(
    focus: str, other: str, players: int, estimate: float, low: float, units: int, ms: float = 20.0
) -> Row:
    return {
        "key": f"{focus}-{other}" if players == 2 else f"{focus}-3x{other}",
        "focus": focus,
        "other": other,
        "players": players,
        "units": units,
        "games": units * players,
        "score": {"estimate": estimate, "low": low, "high": min(1.0, estimate + 0.05)},
        "median_ms": ms,
        "p90_ms": 2 * ms,
        "timeouts": 0,
    }


def test_the_cells_of_each_variant() -> None:
    peer = [cell.key for cell in cells("rummikub-peer", FOCUS, None)]
    assert peer == [f"{bot}-{other}" for bot in FOCUS for other in ("greedy-tiles", "greedy", "hoarder")]
    rummikub = [cell.key for cell in cells("rummikub", FOCUS, None)]
    # expert plays as greedy in first-out games (tests/test_first_out.py): no column there
    assert "pimc-expert" not in rummikub and "pimc-expert" not in [
        c.key for c in cells("machiavelli", FOCUS, None)
    ]
    assert "pimc-expert" in [cell.key for cell in cells("manipulation", FOCUS, None)]
    assert (
        "pimc-3xhoarder" in rummikub and "oracle-3xgreedy" in rummikub and "pimc-greedy-tiles" not in rummikub
    )
    crowd = next(cell for cell in cells("machiavelli", ("pimc",), None) if cell.players == 4)
    assert crowd.bots == ("pimc", crowd.other, crowd.other, crowd.other)


def test_the_block_has_the_tables_the_gap_and_the_targets() -> None:
    rows = [
        _row("pimc", "hoarder", 2, 0.72, 0.66, 400),
        _row("pimc", "greedy", 2, 0.79, 0.76, 400, ms=120.0),
        _row("oracle", "hoarder", 2, 0.90, 0.87, 400),
        _row("pimc", "hoarder", 4, 0.41, 0.36, 200),
    ]
    text = render(rows, META)
    assert "seed 5" in text and "400 mirrored pairs per 2-player cell" in text and "200 deals" in text
    # the columns in the order the cells are listed (greedy, then hoarder), whatever the rows'
    assert "| | greedy | hoarder |" in text
    assert "| **pimc** | 79.0% (76.0%-84.0%) | 72.0% (66.0%-77.0%) |" in text
    assert "| **oracle** |  | 90.0% (87.0%-95.0%) |" in text
    assert text.index("| **pimc** |") < text.index("| **oracle** |")
    # a row bot measured against one column only still leaves the columns in their order
    late = render(
        [_row("pimc", "hoarder", 2, 0.5, 0.45, 400), _row("oracle", "greedy", 2, 0.9, 0.85, 400)], META
    )
    assert "| | greedy | hoarder |" in late
    assert "| | 3x hoarder |" in text and "chance 25%" in text
    assert "The oracle's lead over pimc: hoarder +18.0 points." in text
    assert "oracle-others" not in text  # not measured, not named
    split = render([*rows, _row("oracle-others", "hoarder", 2, 0.58, 0.52, 400)], META)
    assert "| **oracle-others** |  | 58.0% (52.0%-63.0%) |" in split
    assert "`oracle-others`' lead over pimc: hoarder -14.0 points." in split
    assert "- pimc-hoarder: >= 70%, interval above 65%, over >= 400 pairs: **met**" in text
    assert "- pimc-greedy: >= 80%, interval above 75%, over >= 400 pairs: **not met**" in text
    assert "- pimc-3xhoarder: >= 40%: **met**" in text
    assert "median decision <= 100 ms in every cell: **not met** (at most 120.0 ms)" in text
    assert "has no column of its own" in text
    assert "has no column of its own" not in render(rows, {**META, "variant": "manipulation"})


def test_the_readme_block_is_replaced_between_its_markers(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("a\n<!-- strength:rummikub:begin -->\nold\n<!-- strength:rummikub:end -->\nb\n")
    write_readme(readme, "rummikub", "new table\n")
    assert (
        readme.read_text()
        == "a\n<!-- strength:rummikub:begin -->\nnew table\n<!-- strength:rummikub:end -->\nb\n"
    )
    with pytest.raises(SystemExit, match="markers"):
        write_readme(readme, "machiavelli", "x\n")


def test_the_readme_has_a_block_for_every_variant() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in PRESET_NAMES:
        assert f"<!-- strength:{name}:begin -->" in text and f"<!-- strength:{name}:end -->" in text


def test_the_quick_path_plays_writes_and_renders_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("<!-- strength:machiavelli:begin -->\n<!-- strength:machiavelli:end -->\n")
    results = tmp_path / "results.json"
    common = ["--variant", "machiavelli", "--results", str(results), "--readme", str(readme)]
    strength_main([*common, "--quick", "--jobs", "1", "--focus", "greedy,oracle", "--opponents", "hoarder"])
    saved = json.loads(results.read_text())
    assert [cell["key"] for cell in saved["cells"]] == [
        "greedy-hoarder",
        "oracle-hoarder",
        "greedy-3xhoarder",
        "oracle-3xhoarder",
    ]
    assert saved["meta"]["seed"] == 1 and all(cell["units"] == 1 for cell in saved["cells"])
    written = readme.read_text()
    assert (
        "| **oracle** |" in written and "| | 3x hoarder |" in written and "variant `machiavelli`" in written
    )
    progress = capsys.readouterr().err  # a line per cell at least: an hour-long cell shows it is alive
    assert "  greedy-hoarder: 1/1 pairs, " in progress and "  oracle-3xhoarder: 1/1 deals, " in progress
    strength_main([*common, "--render"])
    assert readme.read_text() == written
    # --only measures a cell again and keeps the others with the dates they were measured on
    saved["meta"]["date"], saved["meta"]["cpu"] = "2020-01-01", "old cpu"
    for cell in saved["cells"]:
        cell.pop("date")  # a file from before cells had dates: they take the file's
        cell.pop("cpu")
    results.write_text(json.dumps(saved))
    strength_main(
        [
            *common,
            "--quick",
            "--jobs",
            "1",
            "--focus",
            "greedy,oracle",
            "--opponents",
            "hoarder",
            "--only",
            "oracle-hoarder",
        ]
    )
    again = json.loads(results.read_text())
    dates = {cell["key"]: cell["date"] for cell in again["cells"]}
    today = again["meta"]["date"]
    assert dates == {
        "greedy-hoarder": "2020-01-01",
        "greedy-3xhoarder": "2020-01-01",
        "oracle-3xhoarder": "2020-01-01",
        "oracle-hoarder": today,
    }
    cpu = again["meta"]["cpu"]
    assert {cell["key"]: cell["cpu"] for cell in again["cells"]}["oracle-hoarder"] == cpu
    older = "greedy-hoarder, oracle-3xhoarder, greedy-3xhoarder"  # in table order: oracle first
    assert (
        f"Measured 2020-01-01 on old cpu ({older}); {today} on {cpu} (oracle-hoarder)," in readme.read_text()
    )
    capsys.readouterr()
    with pytest.raises(SystemExit):
        strength_main([*common, "--quick", "--only", "nobody-greedy"])
    assert "unknown cells" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize("variant", PRESET_NAMES)
def test_the_quick_run_of_every_variant(tmp_path: Path, variant: str) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(f"<!-- strength:{variant}:begin -->\n<!-- strength:{variant}:end -->\n")
    results = tmp_path / "results.json"
    strength_main(
        ["--variant", variant, "--quick", "--jobs", "2", "--results", str(results), "--readme", str(readme)]
    )
    keys = {cell["key"] for cell in json.loads(results.read_text())["cells"]}
    assert {"pimc-hoarder", "oracle-hoarder"} <= keys
    assert "Targets of issue 36" in readme.read_text()
