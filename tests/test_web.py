"""Browser tests of the web page: a real Chromium drives the page served by ``rummy serve``.

The tests start ``rummy serve`` on a free port of 127.0.0.1 and drive Debian's Chromium
(``/usr/bin/chromium``) headless through Python playwright; playwright's own browser
download is never used.  A screenshot of every view is saved under
``test-artifacts/web/`` at the repository root.

Chromium missing is a failure, not a skip: ``python3 dev.py test`` (which ``.ci/run`` calls)
installs it.  On a developer
machine without it, ``RUMMY_SKIP_BROWSER=1`` skips these tests explicitly.
``RUMMY_WEB_URL=http://127.0.0.1:8000`` runs them against a server already running
instead of starting one.
"""

from __future__ import annotations

import json
import os
import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest
from web_kit import ROOT, Server, Watched, card_words_shown, chromium, post_json, shot

EXAMPLE = "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac"

if TYPE_CHECKING:  # playwright missing fails in web_kit.chromium, with the way to install it
    from playwright.sync_api import BrowserContext, Page, Request

_post_json = post_json
_shot = shot


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``rummy serve`` on a free local port, until the module's tests are done."""
    given = os.environ.get("RUMMY_WEB_URL")
    if given:
        yield given.rstrip("/")
        return
    server = Server(tmp_path_factory.mktemp("serve") / "serve.log")
    try:
        yield server.start()
    finally:
        server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[BrowserContext]:
    """Debian's Chromium, headless, with a fresh profile and no calls home."""
    with chromium() as context:
        yield context


@pytest.fixture
def watched(browser: BrowserContext, base_url: str) -> Iterator[Watched]:
    page = browser.new_page()
    seen = Watched(page, base_url)
    try:
        yield seen
    finally:
        page.close()
    seen.check()


def _open(seen: Watched, query: str = "") -> Page:
    page = seen.page
    page.goto(f"{seen.base_url}/{query}")
    page.wait_for_selector("body[data-ready=true]")
    return page


def _pick(page: Page, *cards: str) -> None:
    for card in cards:
        page.click(f"#picker button[data-card='{card}']")


def _cards(page: Page, selector: str) -> list[str]:
    found: list[str] = page.eval_on_selector_all(selector, "nodes => nodes.map(n => n.dataset.card)")
    return found


def _meld_cards(page: Page, board: str) -> list[list[str]]:
    melds: list[list[str]] = page.eval_on_selector_all(
        f"{board} .meld", "melds => melds.map(m => [...m.querySelectorAll('.card')].map(c => c.dataset.card))"
    )
    return melds


def _percent(probability: float) -> str:
    """A probability as the page writes it: whole percents from 10 %, one decimal below."""
    value = 100 * probability
    return f"{value:.0f}%" if value >= 10 or value == 0 else f"{value:.1f}%"


# --- the page and its files -------------------------------------------------------------


def test_the_page_and_its_files_are_served(base_url: str) -> None:
    with urllib.request.urlopen(f"{base_url}/", timeout=5) as answer:
        assert answer.headers["content-type"].startswith("text/html")
        assert "<title>Rummy hints" in answer.read().decode()
    for name, kind in [("app.js", "javascript"), ("app.css", "text/css")]:
        with urllib.request.urlopen(f"{base_url}/static/{name}", timeout=5) as answer:
            assert kind in answer.headers["content-type"]
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(f"{base_url}/static/nothing.js", timeout=5)
    assert missing.value.code == 404


def test_the_page_loads_nothing_from_elsewhere() -> None:
    static = ROOT / "service" / "static"
    files = sorted(path for path in static.iterdir() if path.is_file())
    assert {path.name for path in files} >= {"index.html", "app.css", "app.js"}
    for path in files:
        text = path.read_text().replace("http://www.w3.org/2000/svg", "")
        assert not re.search(r"https?://|url\(\s*['\"]?//|@import", text), f"{path.name} refers elsewhere"


# --- the worked example, entered by clicking ----------------------------------------------


def test_example_entered_by_clicking_gives_three_sequences_and_the_moves(watched: Watched) -> None:
    page = _open(watched)
    for meld in (["Kh", "Kd", "Kc"], ["Qh", "Qd", "Qc"], ["Jh", "Jd", "Jc"]):
        page.click("#new-meld")
        _pick(page, *meld)
    page.click("label[for='target-hand']")
    _pick(page, "Ac")
    assert page.input_value("#notation") == EXAMPLE
    assert page.inner_text("#picker button[data-card='Kh'] .count") == "1"
    assert "1 left" in (page.get_attribute("#picker button[data-card='Kh']", "aria-label") or "")
    assert len(page.query_selector_all("#entry-board .entry-meld")) == 4  # three melds and the hand
    _shot(page, "1-position-entry")

    page.click("#hint-button")
    page.wait_for_selector("#after-board")
    after = _meld_cards(page, "#after-board")
    assert after == [["Jh", "Qh", "Kh"], ["Jd", "Qd", "Kd"], ["Jc", "Qc", "Kc", "Ac"]]
    for meld in after:
        assert len({card[-1] for card in meld}) == 1, f"{meld} is not a sequence"
    assert _cards(page, "#after-board .mark-hand") == ["Ac"]
    # Typed as K, Q, J: meld 1 (the kings) hosts new meld 1 and keeps Kh, and so on.
    assert sorted(_cards(page, "#after-board .mark-moved")) == sorted(["Qh", "Jh", "Kd", "Jd", "Kc", "Qc"])
    assert _cards(page, "#before-hand .mark-hand") == ["Ac"]

    expected = _post_json(f"{watched.base_url}/v1/hint", {"position": EXAMPLE})
    texts = page.eval_on_selector_all("#moves li", "items => items.map(i => i.dataset.text)")
    assert texts == [move["text"] for move in expected["moves"]] and len(texts) == 3
    facts = page.inner_text("#hint-facts")
    assert re.search(r"Hand points left\s+0", facts)
    assert re.search(r"Can knock\s+Yes", facts) and re.search(r"Goes out\s+Yes", facts)
    assert "you go out" in page.inner_text("#status")
    _shot(page, "2-hint")

    # Step through the moves: each step lights up the cards it moves, before and after.
    page.click("#step-next")
    assert page.get_attribute("#moves li >> nth=0", "aria-current") == "step"
    assert page.inner_text("#step-where").startswith("Step 1 of 3")
    # Old melds are numbered as typed (meld 1 is Kh Kd Kc): Qh comes from meld 2, Jh from meld 3.
    assert sorted(_cards(page, "#after-board .hl")) == ["Jh", "Qh"]
    assert sorted(_cards(page, "#before-board .hl")) == ["Jh", "Qh"]
    assert _cards(page, "#before-board .meld[data-meld='2'] .hl") == ["Qh"]
    assert _cards(page, "#before-board .meld[data-meld='3'] .hl") == ["Jh"]
    assert page.eval_on_selector("#after-board .meld.hl-meld", "m => m.dataset.meld") == "1"
    _shot(page, "3-hint-step")
    page.click("#step-next")
    page.click("#step-next")
    assert page.inner_text("#step-where").startswith("Step 3 of 3")
    assert page.is_disabled("#step-next")
    assert _cards(page, "#before-hand .hl") == ["Ac"]
    assert sorted(_cards(page, "#after-board .hl")) == ["Ac", "Kc", "Qc"]
    page.click("#moves li >> nth=1 >> button")
    assert page.inner_text("#step-where").startswith("Step 2 of 3")
    page.click("#step-all")
    assert _cards(page, ".hl") == []


def test_the_hint_groups_its_steps_into_independent_rearrangements(watched: Watched) -> None:
    """Issue 20: the card flow's independent rearrangements are listed and light up their
    melds and steps; a step lights the cards it takes out of its meld apart from the rest."""
    page = _open(watched)
    position = "2h 3h 4h | 10c Jc *Qc Kc | *10c Jc Qc Kc / Kh"  # typed in canonical order
    page.fill("#notation", position)
    page.click("#hint-button")
    page.wait_for_selector("#rearrangements")
    expected = _post_json(f"{watched.base_url}/v1/hint", {"position": position})
    groups = expected["rearrangements"]
    assert [group["kind"] for group in groups] == ["trade", "keep"]
    lines = page.eval_on_selector_all("#rearrangements li", "items => items.map(i => i.dataset.text)")
    assert lines == [groups[0]["text"], "Meld 1 stays as it is."]
    assert "Melds 2 and 3 trade cards into new melds 2, 3 and 4" in page.inner_text("#rearrangements")
    assert page.get_attribute("#rearrangements li >> nth=0", "data-kind") == "trade"
    _shot(page, "2b-hint-rearrangements")

    # A rearrangement lights up its old melds, its new melds and its steps.
    page.click("#rearrangements li >> nth=0 >> button")
    assert page.get_attribute("#rearrangements li >> nth=0", "aria-current") == "true"
    numbers = "melds => melds.map(m => +m.dataset.meld)"
    lit_before = page.eval_on_selector_all("#before-board .meld.hl-meld", numbers)
    lit_after = page.eval_on_selector_all("#after-board .meld.hl-meld", numbers)
    assert lit_before == groups[0]["old_melds"] == [2, 3]
    assert lit_after == groups[0]["new_melds"] == [2, 3, 4]
    in_group = page.eval_on_selector_all(
        "#moves li", "items => items.flatMap((item, at) => item.matches('.in-group') ? [at + 1] : [])"
    )
    assert in_group == groups[0]["steps"]
    assert _cards(page, "#before-hand .hl") == groups[0]["hand"] == ["Kh"]
    assert page.inner_text("#step-where").startswith("Rearrangement: steps")
    assert not page.is_disabled("#step-all")
    _shot(page, "2c-hint-rearrangement-lit")

    # A step built on an old meld marks what it takes out of that meld (hl-out), not as arriving.
    index, move = next(
        (at, move) for at, move in enumerate(expected["moves"]) if move["action"] == "meld" and move["remove"]
    )
    page.click(f"#moves li >> nth={index} >> button")
    assert page.get_attribute("#rearrangements li >> nth=0", "aria-current") is None
    taken = sorted(card for departure in move["remove"] for card in departure["cards"])
    out = _cards(page, f"#before-board .meld[data-meld='{move['on_meld']}'] .hl-out")
    assert sorted(out) == taken and "take out" in move["text"]
    _shot(page, "2d-hint-step-take-out")
    page.click("#step-all")
    assert _cards(page, ".hl-out") == [] and _cards(page, ".hl") == []


# --- the notation field and the picker stay in sync ----------------------------------------


def test_typed_notation_updates_the_picker_and_a_table_joker_asks_for_its_card(watched: Watched) -> None:
    page = _open(watched)
    page.fill("#notation", "7h 8h *9h / 9h Jh 9h")
    page.wait_for_function("document.querySelector(\"#picker [data-card='9h'] .count\").textContent === '0'")
    assert page.get_attribute("#picker button[data-card='9h']", "aria-disabled") == "true"
    assert page.inner_text("#picker button[data-card='*'] .count") == "1"
    page.click("#entry-board [data-where=hand] .cards button >> nth=2")  # take the second 9h back
    assert page.input_value("#notation") == "7h 8h *9h / 9h Jh"

    page.click("#clear-button")
    assert page.input_value("#notation") == ""
    page.click("#new-meld")
    _pick(page, "7h", "8h", "*")
    page.wait_for_selector("#joker-dialog[open]")
    assert page.input_value("#joker-rank") == "9" and page.input_value("#joker-suit") == "h"
    page.select_option("#joker-rank", "6")
    page.click("#joker-ok")
    page.wait_for_function("document.querySelector('#notation').value === '7h 8h *6h /'")
    page.click("label[for='target-hand']")
    _pick(page, "*")  # a hand joker needs no card
    assert page.input_value("#notation") == "7h 8h *6h / *"


def test_keyboard_alone_enters_cards_and_asks_for_the_hint(watched: Watched) -> None:
    page = _open(watched)
    page.focus("#new-meld")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "target-0"
    page.focus("#picker button[data-card='As']")
    page.keyboard.press("ArrowDown")  # Ah
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowRight")  # 2h
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowRight")  # 3h
    page.keyboard.press("Enter")
    assert page.input_value("#notation") == "Ah 2h 3h /"
    page.focus("#notation")
    page.keyboard.press("End")
    page.keyboard.type(" 4h")
    page.keyboard.press("Enter")
    page.wait_for_selector("#after-board")
    assert _meld_cards(page, "#after-board") == [["Ah", "2h", "3h", "4h"]]
    assert page.evaluate("document.activeElement.id") == "hint-heading"


# --- errors -------------------------------------------------------------------------------------


def test_a_malformed_position_shows_the_error_next_to_the_input(watched: Watched) -> None:
    page = _open(watched)
    page.fill("#notation", "Kh Kd Xc / Ac")
    page.click("#hint-button")
    page.wait_for_selector("#entry-error:not([hidden])")
    error = page.inner_text("#entry-error")
    assert "cannot be read" in error and "bad card 'Xc'" in error and "unknown rank 'X'" in error
    # Issue 37: a comma is named as the problem, not the card before it.
    page.fill("#notation", "Kh Kd Kc / 10h, Jh")
    page.click("#hint-button")
    page.wait_for_function("document.querySelector('#entry-error').innerText.includes(',')")
    error = page.inner_text("#entry-error")
    assert "',' is not part of a card" in error and "unknown rank" not in error
    page.fill("#notation", "Kh Kd Xc / Ac")
    page.click("#hint-button")
    page.wait_for_function("document.querySelector('#entry-error').innerText.includes('Xc')")
    assert page.get_attribute("#notation", "aria-invalid") == "true"
    assert page.get_attribute("#entry-error", "role") == "alert"
    assert page.is_hidden("#hint-view")
    assert "last position that could be read" in page.inner_text("#notation-note")
    _shot(page, "4-error")

    page.fill("#notation", "Kh Kh Kh / Ac")
    page.click("#hint-button")
    page.wait_for_function("document.querySelector('#entry-error').textContent.includes('cannot happen')")
    assert "Kh" in page.inner_text("#entry-error")
    page.click("#example-button")
    page.click("#hint-button")
    page.wait_for_selector("#after-board")
    assert page.is_hidden("#entry-error")
    assert page.get_attribute("#notation", "aria-invalid") == "false"


# --- the analysis -------------------------------------------------------------------------------


def test_analysis_shows_draw_or_meld_and_the_outs_with_their_chances(watched: Watched) -> None:
    position = "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac 2c"
    expected = _post_json(f"{watched.base_url}/v1/analyze", {"position": position})
    page = _open(watched)
    page.fill("#notation", position)
    page.click("#analyze-button")
    page.wait_for_selector("#analysis-advice")
    advice = "Meld now." if expected["advice"] == "meld" else "Draw first."
    assert page.inner_text("#analysis-advice").startswith(advice)
    figures = page.inner_text("#analysis-figures")
    assert re.search(rf"Points left if you meld now\s+{expected['meld_now_points']}", figures)
    assert re.search(rf"Expected points if you draw first\s+{expected['draw_expected_points']:.2f}", figures)
    assert page.inner_text("#knock-chance .chance-value") == _percent(expected["knock_probability"])
    assert page.inner_text("#out-chance .chance-value") == _percent(expected["out_probability"])
    assert _cards(page, "#outs-go-out li[data-card]") == expected["outs"]["go_out"]
    assert _cards(page, "#outs-knock li") == expected["outs"]["knock"]
    unseen = expected["unseen_cards"]
    copies = expected["facts"]["decks"]  # no player count: two players, one deck (solver.facts)
    assert (
        page.inner_text("#outs-go-out li[data-card='3c'] .odds")
        == f"{copies}/{unseen} · {_percent(copies / unseen)}"
    )
    assert page.inner_text("#analysis-facts") == "2 players (assumed): 1 deck, 1 joker; 42 unseen cards."
    # "Now": a draw above may make a card playable ("Never playable" read as a contradiction).
    assert "Not playable now: " in page.inner_text("#analysis-view")
    _shot(page, "5-analysis")


# --- puzzles ----------------------------------------------------------------------------------


def test_a_puzzle_round_trip(watched: Watched) -> None:
    page = _open(watched, "?seed=5")
    page.focus("#tab-solve")
    page.keyboard.press("ArrowRight")
    assert page.is_visible("#panel-puzzle") and page.is_hidden("#panel-solve")
    page.select_option("#difficulty", "easy")
    page.click("#puzzle-new")
    page.wait_for_selector("#puzzle-view:not([hidden])")
    puzzle = _post_json(f"{watched.base_url}/v1/puzzles", {"difficulty": "easy", "seed": 5})["puzzles"][0]
    assert page.input_value("#answer-notation") == puzzle["table"]
    assert _cards(page, "#puzzle-hand .card") == puzzle["hand"]
    assert "easy" in page.inner_text("#puzzle-intro")

    # The table as it stands plays nothing: the check names the rule.
    page.click("#puzzle-check")
    page.wait_for_selector("#puzzle-verdict.wrong")
    assert "no card from the hand was played" in page.inner_text("#puzzle-verdict")

    # One hand card alone in a new meld: too short.
    first = puzzle["hand"][0]
    page.click("#answer-board [data-where=hand] .cards button >> nth=0")
    page.click("#answer-new-meld")
    assert page.input_value("#answer-notation") == f"{puzzle['table']} | {first}"
    page.click("#puzzle-check")
    page.wait_for_selector("#puzzle-verdict.wrong")
    assert "needs at least 3 cards" in page.inner_text("#puzzle-verdict")
    _shot(page, "6-puzzle")

    # Reveal the solution, enter it, and the check accepts it.
    page.click("#puzzle-reveal")
    page.wait_for_selector("#puzzle-solution:not([hidden]) #after-board")
    assert page.inner_text("#solution-notation") == puzzle["solution"]["table"]
    texts = page.eval_on_selector_all("#puzzle-solution #moves li", "items => items.map(i => i.dataset.text)")
    assert texts == [move["text"] for move in puzzle["solution"]["moves"]]
    page.fill("#answer-notation", puzzle["solution"]["table"])
    page.wait_for_function("!document.querySelector('#answer-board [data-where=hand] .cards button')")
    page.click("#puzzle-check")
    page.wait_for_selector("#puzzle-verdict.ok")
    assert "Solved" in page.inner_text("#puzzle-verdict")
    _shot(page, "7-puzzle-solved")
    # The next puzzle starts with its solution hidden (the last one's stayed on screen).
    page.click("#puzzle-new")
    page.wait_for_function("document.querySelector('#puzzle-solution').hidden")
    assert page.is_hidden("#puzzle-solution")


# --- layout ---------------------------------------------------------------------------------------


def test_a_phone_sized_screen_gets_one_column_and_no_sideways_scrolling(watched: Watched) -> None:
    page = watched.page
    page.set_viewport_size({"width": 390, "height": 844})
    _open(watched)
    page.click("#example-button")
    page.click("#hint-button")
    page.wait_for_selector("#after-board")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px screen"
    entry = page.locator(".entry").bounding_box()
    results = page.locator(".results").bounding_box()
    assert entry and results and results["y"] >= entry["y"] + entry["height"] - 1
    cell = page.locator("#picker button[data-card='Ks']").bounding_box()
    assert cell and cell["width"] >= 24 and cell["height"] >= 32, f"picker cards too small: {cell}"
    _shot(page, "8-phone-hint")


# --- issue 20: numbering as entered, sharing, options, touch targets, tiles ----------------------


def _entry_melds(page: Page) -> list[list[str]]:
    """The left panel's melds ("Your position"), in its order, without the hand."""
    melds: list[list[str]] = page.eval_on_selector_all(
        "#entry-board .entry-meld:not([data-where=hand])",
        "rows => rows.map(r => [...r.querySelectorAll('.cards .card')].map(c => c.dataset.card))",
    )
    return melds


def test_old_melds_are_numbered_as_entered_in_the_panel_the_board_and_the_steps(watched: Watched) -> None:
    """Issue 20: 'meld 1' of the steps is the panel's Meld 1 (Kh Kd Kc as typed), not the
    canonical first meld (the jacks)."""
    page = _open(watched)
    page.fill("#notation", EXAMPLE)
    page.click("#hint-button")
    page.wait_for_selector("#after-board")
    typed = [["Kh", "Kd", "Kc"], ["Qh", "Qd", "Qc"], ["Jh", "Jd", "Jc"]]
    assert _entry_melds(page) == typed
    assert _meld_cards(page, "#before-board") == typed
    texts = page.eval_on_selector_all("#moves li", "items => items.map(i => i.dataset.text)")
    assert texts[0] == (
        "Meld 1 becomes new meld 1, Jh Qh Kh: take out Kd for new meld 2 and Kc for new meld 3; "
        "add Qh from meld 2 and Jh from meld 3."
    )
    assert texts[2].endswith("add Kc from meld 1, Qc from meld 2 and Ac from your hand.")
    # Each step's "from meld N" lights a card in the panel's meld N.
    page.click("#step-next")
    for number, card in [(2, "Qh"), (3, "Jh")]:
        assert _cards(page, f"#before-board .meld[data-meld='{number}'] .hl") == [card]
        assert card in typed[number - 1]
    # The same table written in another order gets its own numbers.
    page.fill("#notation", "Qh Qd Qc | Jh Jd Jc | Kh Kd Kc / Ac")
    page.click("#hint-button")
    page.wait_for_function("document.querySelector('#before-board .meld .card').dataset.card === 'Qh'")
    first = page.get_attribute("#moves li >> nth=0", "data-text") or ""
    assert first == (
        "Meld 1 becomes new meld 1, Jh Qh Kh: take out Qd for new meld 2 and Qc for new meld 3; "
        "add Jh from meld 2 and Kh from meld 3."
    )
    assert _meld_cards(page, "#before-board")[0] == ["Qh", "Qd", "Qc"]


def test_an_empty_hand_gets_one_answer_from_every_button(watched: Watched) -> None:
    """Hint, Analyze and Advice all say the hand has gone out (solver.facts.EMPTY_HAND)."""
    said = "the player has gone out, so the round is over and there is nothing to play"
    page = _open(watched)
    for button in ("#hint-button", "#analyze-button", "#advise-button"):
        page.fill("#notation", "Kh Kd Kc / ")
        page.fill("#notation", "Kh Kd Kc /")
        page.click(button)
        page.wait_for_selector("#entry-error:not([hidden])")
        assert said in page.inner_text("#entry-error"), button


def _mistake_puzzle(position: str, phase: str, facts: dict[str, Any], made: str, answer: str) -> Any:
    """A 2-player Manipulation mistake puzzle with no play for an answer (a draw or a knock)."""
    from solver.position import Position
    from solver.strategy.mistakes import MistakePuzzle
    from solver.strategy.stats import Interval
    from solver.variants import Variant

    return MistakePuzzle(
        variant=Variant.manipulation(players=2),
        position=Position.parse(position),
        phase=phase,
        facts=facts,
        made=made,
        answer_kind=answer,
        answer=answer,
        answer_table=None,
        loss=Interval(20.0, 16.0, 24.0),
        band="mistake",
        game={},
    )


def test_a_mistake_puzzle_link_opens_the_position_with_its_facts(watched: Watched) -> None:
    """rummy review --puzzles writes a link per mistake: position, players and game facts."""
    facts = {"players": 2, "hand_sizes": [4, 9], "stock": 34, "scores": [30, 45], "draws_left": 1}
    puzzle = _mistake_puzzle("10d Jd Qd | 4s 4d 4c / 9d Kd 3s 8s", "meld", facts, "draw", "draw")
    page = _open(watched, puzzle.link()[1:])
    assert page.input_value("#notation") == str(puzzle.position)
    assert page.is_hidden("#hint-view") and page.is_hidden("#advice-view")  # a puzzle: no answer shown
    assert page.input_value("#players") == "2"
    assert page.evaluate("document.querySelector('#facts-box').open")
    assert [page.input_value(f"#{name}") for name in ("hand-sizes", "stock", "scores", "draws-left")] == [
        "9",
        "34",
        "30,45",
        "1",
    ]


def test_a_position_and_its_options_are_shared_by_the_address(watched: Watched) -> None:
    page = _open(watched)
    page.click("#example-button")
    page.select_option("#objective", "cards")
    page.select_option("#players", "2")
    page.fill("#unseen", "2c 3c")
    page.wait_for_function("window.location.search.includes('unseen=')")
    query = urllib.parse.parse_qs(urllib.parse.urlparse(page.url).query)
    # nothing asked yet: the link opens the form alone ("show": "none")
    assert query == {
        "p": [EXAMPLE],
        "objective": ["cards"],
        "players": ["2"],
        "unseen": ["2c 3c"],
        "show": ["none"],
    }
    assert (
        page.get_attribute("#share-link", "href")
        == urllib.parse.urlparse(page.url)._replace(scheme="", netloc="").geturl()
    )

    # The address alone rebuilds the page: position, rules, options and the deck they imply.
    other = watched.page.context.new_page()
    try:
        other.goto(page.url)
        other.wait_for_selector("body[data-ready=true]")
        assert other.input_value("#notation") == EXAMPLE
        assert _entry_melds(other) == [["Kh", "Kd", "Kc"], ["Qh", "Qd", "Qc"], ["Jh", "Jd", "Jc"]]
        assert other.input_value("#objective") == "cards" and other.input_value("#players") == "2"
        assert other.input_value("#unseen") == "2c 3c"
        assert other.inner_text("#picker button[data-card='Kh'] .count") == "0"  # two players: one deck
    finally:
        other.close()

    query_text = urllib.parse.urlencode({"p": "/ 10h Jh Qh Kh 5c", "v": "rummikub", "opened": "0"})
    shared = _open(watched, f"?{query_text}")
    assert shared.input_value("#variant") == "rummikub"
    assert shared.is_checked("#not-opened") and shared.is_visible("#not-opened")
    assert shared.inner_text("#picker button[data-card='Kh'] .count") == "1"


def test_the_options_reach_the_hint(watched: Watched) -> None:
    page = _open(watched)
    requests: list[dict[str, Any]] = []

    def keep(request: Request) -> None:
        if request.url.endswith("/v1/hint"):
            assert request.post_data is not None  # a hint is a POST with a JSON body
            requests.append(json.loads(request.post_data))

    page.on("request", keep)

    def hint(position: str) -> dict[str, str]:
        page.fill("#notation", position)
        page.click("#hint-button")
        page.wait_for_function(
            "(q => !q('#hint-button').disabled && (!q('#hint-view').hidden || !q('#entry-error').hidden))"
            "(s => document.querySelector(s))"
        )
        return {"status": page.inner_text("#status"), "error": page.inner_text("#entry-error")}

    # Keep jokers: the joker stays in the hand.
    spent = hint("/ Qs Ks As * 2c")
    assert "★" in spent["status"]  # the joker, written as the page shows pieces
    page.check("#keep-jokers")
    kept = hint("/ Qs Ks As * 2c")
    assert requests[-1]["keep_jokers"] is True
    assert kept["status"].startswith("Best play: play A♠ Q♠ K♠;")
    assert "*" not in _cards(page, "#after-board .card")
    page.uncheck("#keep-jokers")

    # Objective: most cards played.
    page.select_option("#objective", "cards")
    hint("/ Qs Ks As * 2c")
    assert requests[-1]["objective"] == "cards"
    page.select_option("#objective", "points")

    # Players: two players of Manipulation have one deck.
    page.select_option("#players", "2")
    two = hint("/ Ah Ah 2h 3h")
    assert requests[-1]["players"] == 2 and "holds 1" in two["error"]
    page.select_option("#players", "")
    assert "play" in hint("/ Ah Ah 2h 3h")["status"]
    assert "players" not in requests[-1]  # the default deck: two decks for Manipulation

    # Rummikub not opened yet: the first meld needs 30 from the rack.
    page.select_option("#variant", "rummikub")
    assert page.is_visible("#not-opened") and page.is_visible("#keep-jokers")
    page.check("#not-opened")
    small = hint("/ 2h 3h 4h")
    assert requests[-1]["opened"] is False and "no play" in small["status"]
    page.uncheck("#not-opened")
    assert "play r2 r3 r4" in hint("/ 2h 3h 4h")["status"]  # tiles, as Rummikub shows them
    assert requests[-1]["opened"] is True
    page.select_option("#variant", "machiavelli")
    assert page.is_hidden("#not-opened-option") and page.is_hidden("#keep-jokers-option")
    assert page.eval_on_selector_all("#players option", "o => o.map(x => x.value)")[:3] == ["", "2", "3"]


def test_the_example_has_a_play_in_every_variant(watched: Watched) -> None:
    """Rummikub has no ace-high: the card games' example (Ac after three kings) had no
    legal play there."""
    page = _open(watched)
    for name in ("manipulation", "machiavelli", "rummikub"):
        page.select_option("#variant", name)
        page.click("#example-button")
        page.click("#hint-button")
        page.wait_for_function("document.querySelector('#status').innerText.startsWith('Best play')")
        assert page.is_visible("#after-board"), name


def test_analysis_says_a_draw_ends_the_turn_in_machiavelli(watched: Watched) -> None:
    """Machiavelli and Rummikub are meld *or* draw: the drawn card is played next turn, so
    the analysis may not say "draw first" (Manipulation Rummy's turn, which goes on after a
    draw), and it says the advice compares points only."""
    page = _open(watched)
    page.select_option("#variant", "machiavelli")
    page.fill("#notation", "5h 6h 7h / 8h Kc")
    page.click("#analyze-button")
    page.wait_for_selector("#analysis-advice")
    assert page.inner_text("#analysis-heading") == "Meld now or draw?"
    advice = page.inner_text("#analysis-advice")
    assert advice.startswith("Meld now.") and "Drawing and playing next turn" in advice
    assert "A draw ends the turn" in advice and "compare points only" in advice
    figures = page.inner_text("#analysis-figures")
    assert "Expected points if you draw and play next turn" in figures and "draw first" not in figures
    assert "the best play next turn" in page.inner_text("#analysis-view")
    page.select_option("#variant", "manipulation")
    page.click("#analyze-button")
    page.wait_for_function("document.querySelector('#analysis-heading').innerText.includes('first')")
    assert "A draw ends the turn" not in page.inner_text("#analysis-advice")
    assert "Expected points if you draw first" in page.inner_text("#analysis-figures")


def test_analyze_takes_the_unseen_cards(watched: Watched) -> None:
    page = _open(watched)
    page.fill("#notation", "7h 8h 9h / Jh Qs")
    page.fill("#unseen", "10h Ks Kd *")
    page.click("#analyze-button")
    page.wait_for_selector("#analysis-advice")
    assert re.search(r"Unseen cards\s+4", page.inner_text("#analysis-figures"))
    expected = _post_json(
        f"{watched.base_url}/v1/analyze", {"position": "7h 8h 9h / Jh Qs", "unseen": "10h Ks Kd *"}
    )
    assert _cards(page, "#outs-go-out li[data-card]") == expected["outs"]["go_out"]
    page.fill("#unseen", "7h 7h 7h")
    page.click("#analyze-button")
    page.wait_for_selector("#unseen-error:not([hidden])")
    assert page.get_attribute("#unseen", "aria-invalid") == "true"
    assert "7h" in page.inner_text("#unseen-error")
    assert page.is_hidden("#entry-error")
    # Issue 37: unseen cards that cannot be read are said to be the unseen cards' problem,
    # not the position's ("This position cannot be read").
    page.fill("#unseen", "10h, Ks")
    page.click("#analyze-button")
    page.wait_for_function("document.querySelector('#unseen-error').innerText.includes(',')")
    unseen_error = page.inner_text("#unseen-error")
    assert unseen_error.startswith("These unseen cards cannot be read."), unseen_error
    assert "',' is not part of a card" in unseen_error
    assert "position" not in unseen_error.lower()
    assert page.is_hidden("#entry-error")


def test_an_impossible_position_says_each_problem_once(watched: Watched) -> None:
    page = _open(watched)
    page.fill("#notation", "Kh Kh Kh / Ac")
    page.click("#hint-button")
    page.wait_for_selector("#entry-error:not([hidden])")
    text = page.inner_text("#entry-error")
    assert text.count("3 copies of Kh") == 1, text
    # Two problems: the message names both, so neither is listed again.
    page.fill("#notation", "Kh Kh Kh / Ac Ac Ac")
    page.click("#hint-button")
    page.wait_for_function("document.querySelector('#entry-error').textContent.includes('Ac')")
    text = page.inner_text("#entry-error")
    assert text.count("3 copies of Kh") == 1 and text.count("3 copies of Ac") == 1, text


def _boxes(page: Page, selector: str) -> list[dict[str, float]]:
    boxes: list[dict[str, float]] = page.eval_on_selector_all(
        selector,
        """nodes => nodes.filter(n => n.offsetParent !== null).map(n => {
             const r = n.getBoundingClientRect();
             const name = n.dataset.card || n.textContent.trim();
             return {width: r.width, height: r.height, top: r.top, name};
           })""",
    )
    return boxes


def test_touch_targets_on_a_phone_are_at_least_40_px(watched: Watched) -> None:
    page = watched.page
    page.set_viewport_size({"width": 360, "height": 800})
    _open(watched)
    page.click("#example-button")
    targets = _boxes(page, "#panel-solve button, #panel-solve select, #panel-solve .target label")
    assert len(targets) > 53 + 8
    small = [box for box in targets if box["width"] < 40 or box["height"] < 40]
    assert not small, f"touch targets under 40 px on a 360 px phone: {small[:5]}"
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the page is {width} px wide on a 360 px screen"
    _shot(page, "9-phone-picker")
    # The hint's stepper and steps too.
    page.click("#hint-button")
    page.wait_for_selector("#after-board")
    steps = _boxes(page, "#hint-view button")
    assert len(steps) == 3 + 1 + 3  # previous, next, all; one per rearrangement; one per step
    small = [box for box in steps if box["width"] < 40 or box["height"] < 40]
    assert not small, f"hint buttons under 40 px on a 360 px phone: {small}"


@pytest.mark.parametrize("width", [360, 1000, 1280])
def test_four_card_melds_in_the_puzzle_answer_do_not_wrap(watched: Watched, width: int) -> None:
    page = watched.page
    page.set_viewport_size({"width": width, "height": 900})
    _open(watched, "?seed=5")
    page.click("#tab-puzzle")
    page.select_option("#difficulty", "easy")
    page.click("#puzzle-new")
    page.wait_for_selector("#puzzle-view:not([hidden])")
    page.fill("#answer-notation", "7h 8h 9h 10h | Ks Kh Kd Kc | 2c 3c 4c 5c 6c")
    page.wait_for_function(
        "document.querySelector('#answer-board .answer-meld .cards .card').dataset.card === '7h'"
    )
    rows = page.eval_on_selector_all(
        "#answer-board .answer-meld:not([data-where=hand])",
        "rows => rows.map(r => [...r.querySelectorAll('.cards .card')]"
        ".map(c => c.getBoundingClientRect().top))",
    )
    assert len(rows) == 3
    for tops in rows[:2]:
        assert len(tops) == 4 and max(tops) - min(tops) < 1, f"a four-card meld wraps at {width} px: {tops}"
    for box in _boxes(page, "#answer-board button"):
        assert box["height"] >= (40 if width <= 480 else 0)
    _shot(page, f"10-puzzle-answer-{width}")


def test_rummikub_shows_tiles_and_no_knocking(watched: Watched) -> None:
    page = _open(watched, "?v=rummikub")
    assert page.inner_text("#pick-heading") == "Pick tiles"
    queen = page.locator("#picker button[data-card='Qh']")
    assert queen.inner_text().split()[0] == "12"
    assert "colour-h" in (queen.get_attribute("class") or "")
    assert not page.query_selector("#picker button[data-card='Qh'] svg use[href^='#suit-']")
    assert "red 12" in (queen.get_attribute("aria-label") or "")
    assert page.is_visible("#tiles-help") and page.is_hidden("#notation-help")
    page.fill("#notation", "10h Jh Qh / Kh 5c")
    page.click("#hint-button")
    page.wait_for_selector("#after-board")
    facts = page.inner_text("#hint-facts")
    assert "Can knock" not in facts and re.search(r"Tiles played\s+1", facts)
    assert "knock" not in page.inner_text("#status")
    faces = [text.split()[0] for text in page.locator("#after-board .card").all_inner_texts()]
    assert faces == ["10", "11", "12", "13"]
    shown = page.eval_on_selector(
        "#moves li", "li => [...li.querySelectorAll('.mini')].map(m => m.firstChild.textContent)"
    )
    assert shown == ["10", "11", "12", "13", "13"]  # "10h Jh Qh Kh: add Kh from your hand", as tiles
    assert not page.query_selector("#moves svg use[href^='#suit-']")
    assert "red 13" in page.inner_text("#moves li >> nth=0")  # read aloud as the tile
    _shot(page, "11-rummikub-hint")
    page.click("#analyze-button")
    page.wait_for_selector("#analysis-advice")
    assert page.is_hidden("#knock-chance") or not page.query_selector("#knock-chance")
    assert not page.query_selector("#outs-knock")
    assert "Unseen tiles" in page.inner_text("#analysis-figures")

    # Issue 37: the words are Rummikub's (rack, sets), the status line shows tiles, and the
    # tiles as the page and the commands print them can be typed back, ★ jokers included.
    page.click("#hint-button")
    page.wait_for_selector("#hint-facts")
    facts = page.inner_text("#hint-facts")
    assert "Rack points left" in facts and "Hand" not in facts
    assert page.inner_text("#status").startswith("Best play: play r13;"), page.inner_text("#status")
    assert "Rummikub (2 sets, 2 jokers)" in page.inner_text("#variant")
    assert page.inner_text("label[for=notation]") == "Position (table / rack)"
    assert page.text_content("label[for=hand-sizes]") == "Other rack sizes"  # in the closed facts box
    assert "r7" in page.inner_text("#tiles-help")
    # The decks its player counts use: 1 for 2 players, 2 for 3-5 (it said the largest alone).
    assert "Manipulation (1-2 decks, 1-2 jokers)" in page.inner_text("#variant")
    page.fill("#notation", "r10 r11 r12 / r13 o5 ★")
    page.click("#hint-button")
    page.wait_for_function("document.querySelector('#status').innerText.startsWith('Best play')")
    assert page.is_hidden("#entry-error")
    assert _entry_melds(page) == [["10h", "Jh", "Qh"]]
    page.fill("#notation", "r10 r11 r12 / k14")
    page.click("#hint-button")
    page.wait_for_selector("#entry-error:not([hidden])")
    error = page.inner_text("#entry-error")
    assert "a tile is its colour (k black, r red, b blue, o orange)" in error and "unknown" not in error

    # Back to Manipulation: cards with suits, and knocking again.
    page.select_option("#variant", "manipulation")
    assert page.inner_text("#pick-heading") == "Pick cards"
    assert page.locator("#picker button[data-card='Qh']").inner_text().split()[0] == "Q"
    page.select_option("#variant", "machiavelli")
    page.fill("#notation", "10h Jh Qh / Kh 5c")
    page.click("#hint-button")
    page.wait_for_function("!document.querySelector('#hint-button').disabled")
    assert "Can knock" not in page.inner_text("#hint-facts")


def test_the_puzzle_tab_draws_tiles_for_a_rummikub_puzzle_and_the_solve_tab_keeps_its_cards(
    watched: Watched,
) -> None:
    page = _open(watched, "?seed=5")
    page.click("#tab-puzzle")
    page.select_option("#puzzle-variant", "rummikub")
    page.select_option("#difficulty", "easy")
    page.click("#puzzle-new")
    page.wait_for_selector("#puzzle-view:not([hidden])")
    all_tiles = "cards => cards.every(card => card.classList.contains('tile'))"
    assert page.eval_on_selector_all("#puzzle-table .card", all_tiles)
    assert "tile" in page.inner_text("#puzzle-status")
    page.click("#puzzle-reveal")
    page.wait_for_selector("#puzzle-solution:not([hidden]) #after-board")
    assert "Can knock" not in page.inner_text("#puzzle-solution #hint-facts")
    assert page.eval_on_selector_all("#puzzle-solution .card", all_tiles)
    _shot(page, "12-rummikub-puzzle")
    page.click("#tab-solve")  # Manipulation there: cards again
    assert page.inner_text("#pick-heading") == "Pick cards"
    assert not page.query_selector("#picker .card.tile")
    page.click("#tab-puzzle")
    assert page.query_selector("#answer-board .card.tile")


def test_every_text_of_the_page_says_tiles_rack_and_colours_in_rummikub(watched: Watched) -> None:
    """Issue 37: in Rummikub the tagline, the unseen tiles' help and the texts drawn by the
    hint, the analysis, the advice, the errors and the puzzles still said hand and cards.
    Every text shown (and every label read aloud) says tiles, rack and colours, whatever
    the page shows; back in Manipulation they say cards and hand again."""
    page = _open(watched, "?v=rummikub&seed=5")
    page.click("#facts-box > summary")
    assert "your rack" in page.inner_text(".tagline")
    assert "rack" in page.inner_text("#unseen-help") and "r7" in page.inner_text("#unseen-help")
    seen: dict[str, list[str]] = {}

    def look(where: str, click: str | None = None, then: str | None = None) -> None:
        """Click ``click`` (if any), wait for ``then`` (if any), and note what is shown."""
        if click is not None:
            page.click(click)
        if then is not None:
            page.wait_for_selector(then)
        seen[where] = card_words_shown(page)

    look("the start")
    page.fill("#notation", "10h Jh Qh | 5s 5d 5c / Kh 5h 2c 3c 4c")
    look("a hint", "#hint-button", "#after-board")
    look("a step of the hint", "#step-next")
    look("a rearrangement", "#rearrangements button >> nth=0")
    look("an analysis", "#analyze-button", "#analysis-advice")
    _advise(page)
    look("an advice", then="#advice-options")
    for position, shown in (
        ("/ 2c 9d", "#hint-view"),
        ("10h Jh Qh /", "#entry-error"),  # an empty rack: the one answer (solver.facts.EMPTY_HAND)
        ("10h Jh Qh / zz", "#entry-error"),
        ("10h Jh / Qh", "#entry-error"),
    ):
        page.fill("#notation", position)
        page.click("#hint-button")
        page.wait_for_function("!document.querySelector('#hint-button').disabled")
        look(position, then=f"{shown}:not([hidden])")
    page.fill("#notation", "10h Jh Qh / Kh")
    page.fill("#unseen", "xx")
    look("bad unseen tiles", "#analyze-button", "#unseen-error:not([hidden])")
    page.fill("#unseen", "")
    page.fill("#hand-sizes", "a")
    look("a bad rack size", "#advise-button", "#facts-error:not([hidden])")
    page.click("#tab-puzzle")
    page.select_option("#puzzle-variant", "rummikub")
    page.select_option("#difficulty", "easy")
    look("a puzzle", "#puzzle-new", "#puzzle-view:not([hidden])")
    look("a tile picked in a puzzle", "#answer-board button.card >> nth=0")
    look("a puzzle's verdict", "#puzzle-check", "#puzzle-verdict:not(:empty)")
    look("a puzzle's solution", "#puzzle-reveal", "#puzzle-solution:not([hidden]) #after-board")
    assert {where: texts for where, texts in seen.items() if texts} == {}

    page.click("#tab-solve")
    page.select_option("#variant", "manipulation")
    assert "your hand" in page.inner_text(".tagline") and "hand" in page.inner_text("#unseen-help")


# --- issue 18: the advice ---------------------------------------------------------------------

ADVICE_POSITION = "5s 6s 7s | 9h 9d 9c | Jd Qd Kd / 8s 9s 2c 2d *"


def _advise(page: Page, budget: str = "0.5") -> Any:
    """Press Advice with a short budget; the service's answer as the page got it."""
    if not page.evaluate("document.querySelector('#facts-box').open"):
        page.click("#facts-box > summary")
    page.fill("#budget", budget)
    with page.expect_response("**/v1/advise") as answer:
        page.click("#advise-button")
    page.wait_for_function("!document.querySelector('#advise-button').disabled")
    return answer.value.json()


def test_a_knock_puzzle_link_opens_the_knock_decision(watched: Watched) -> None:
    """A review's knock decision as a puzzle: its link checks "Advice on the knock", and the
    page's Advice weighs knock or pass (it weighed the turn's melds before)."""
    position = (
        "3s 4s 5s 6s *7s | 9s 10s Js Qs | 2h 3h 4h 5h | 6h 7h 8h 9h 10h Jh | 7d 8d 9d 10d Jd Qd | "
        "Ac 2c 3c | 4c 5c 6c 7c 8c | 9c 10c Jc Qc | As Ah Ad | Ks Kh Kd / 3d"
    )
    facts = {"players": 2, "hand_sizes": [1, 2], "stock": 7, "scores": [56, 141], "draws_left": 0}
    puzzle = _mistake_puzzle(position, "knock", facts, "pass", "knock")
    assert "decision=knock" in puzzle.link()
    page = _open(watched, puzzle.link()[1:])
    assert page.is_checked("#knock-decision") and page.is_visible("#knock-decision")
    data = _advise(page)
    assert data["decision"] == "knock" and [o["kind"] for o in data["options"]] == ["knock", "pass"]
    page.wait_for_selector("#advice-options")
    assert page.inner_text("#advice-heading").startswith("Knock or pass")
    # Each option says what it is (both read "Pass: no meld", so following the advice passed).
    whats = page.locator("#advice-options .advice-what").all_inner_texts()
    assert whats == ["Knock: end the round now", "Pass: do not knock"]
    # The address keeps it; a hand over the knock threshold is told so, not its hand sizes.
    assert "decision=knock" in page.url
    page.fill("#notation", "5s 6s 7s / Kh Kd 2c")
    page.click("#advise-button")
    page.wait_for_selector("#entry-error:not([hidden])")
    assert "over the 5 a knock allows" in page.inner_text("#entry-error")
    assert page.get_attribute("#hand-sizes", "aria-invalid") != "true"
    page.uncheck("#knock-decision")
    assert "decision=knock" not in page.url
    # Rummikub has no knocking: the box is hidden, and a request without it weighs melds.
    page.select_option("#variant", "rummikub")
    assert page.is_hidden("#knock-decision-option")


def test_advice_ranks_the_options_best_first_with_intervals_and_tables(watched: Watched) -> None:
    page = _open(watched)
    page.fill("#notation", ADVICE_POSITION)
    page.select_option("#players", "2")
    data = _advise(page)
    page.wait_for_selector("#advice-options")
    assert page.is_hidden("#hint-view") and page.is_hidden("#analysis-view")
    labels = page.eval_on_selector_all("#advice-options > li", "items => items.map(i => i.dataset.label)")
    assert labels == [option["label"] for option in data["options"]] and len(labels) >= 3
    estimates = page.locator("#advice-options .advice-value .estimate").all_inner_texts()
    values = [float(text) for text in estimates]
    assert values == sorted(values, reverse=True), "best first"
    first = page.inner_text("#advice-options > li >> nth=0")
    assert "best" in first and "Expected value" in first and "Win chance of the round" in first
    # Three looks of sequential sampling: each interval at 98.3%, 95% over all.
    assert data["confidence"] == 0.9833
    assert re.search(r"\(98.3%: -?[\d.]+ to -?[\d.]+\)", first), first
    # The first option goes out: a certain round win, shown without an interval (it read
    # "100% (98.3%: 100% to 100%)"); the others' chances have theirs.
    assert data["options"][0]["win"]["low"] == data["options"][0]["win"]["high"] == 1
    assert page.inner_text("#advice-options .advice-win >> nth=0").strip().endswith("100%")
    assert " to " not in page.inner_text("#advice-options .advice-win >> nth=0")
    win = page.inner_text("#advice-options .advice-win >> nth=1")
    assert re.search(r"\(98.3%: [\d.<]+% to [\d.<]+%\)", win), win
    assert "Given up against the best" in page.inner_text("#advice-options > li >> nth=1")
    # An alternative's table, on demand.
    index, option = next((i, o) for i, o in enumerate(data["options"]) if i > 0 and o["kind"] == "play")
    item = page.locator("#advice-options > li").nth(index)
    assert item.locator(".advice-table .board").is_hidden()
    item.locator(".advice-table > summary").click()
    assert item.locator(".advice-table .board").is_visible()
    melds = item.locator(".advice-table .meld").evaluate_all(
        "melds => melds.map(m => [...m.querySelectorAll('.card')].map(c => c.dataset.card))"
    )
    assert [" ".join(meld) for meld in melds] == [meld.strip() for meld in option["table"].split("|")]
    # The game facts used, the defaults marked and shown back in the fields.
    facts = page.inner_text("#advice-facts")
    assert re.search(r"Players\s+2\n", facts) and "(default)" in facts
    assert re.search(rf"Stock\s+{data['facts']['stock']} \(default\)", facts)
    assert page.get_attribute("#stock", "placeholder") == f"default: {data['facts']['stock']}"
    assert page.inner_text("#status").startswith("Advice: ")
    _shot(page, "12-advice")
    # The facts given reach the service.
    page.fill("#scores", "120, 90")
    page.fill("#hand-sizes", "4")
    data = _advise(page)
    assert data["facts"]["scores"] == [120, 90] and data["facts"]["hand_sizes"][1:] == [4]
    assert "scores" not in data["facts"]["assumed"]
    assert re.search(r"Scores \(yours first\)\s+120, 90\n", page.inner_text("#advice-facts"))


def test_a_bad_game_fact_shows_its_error_next_to_the_field(watched: Watched) -> None:
    page = _open(watched)
    page.fill("#notation", ADVICE_POSITION)
    page.select_option("#players", "2")
    page.click("#facts-box > summary")
    page.fill("#stock", "lots")
    page.click("#advise-button")
    page.wait_for_selector("#facts-error:not([hidden])")
    assert "The stock is a whole number, 0 or more; not 'lots'." in page.inner_text("#facts-error")
    assert page.get_attribute("#stock", "aria-invalid") == "true"
    assert page.is_hidden("#advice-view") and page.is_hidden("#entry-error")
    # A fact the service finds wrong: two players need two scores.
    page.fill("#stock", "")
    page.fill("#scores", "50")
    page.fill("#budget", "0.5")
    page.click("#advise-button")
    page.wait_for_function("document.querySelector('#facts-error').textContent.includes('scores')")
    text = page.inner_text("#facts-error")
    assert "do not fit the position" in text and "give 2 scores for 2 players" in text
    assert page.get_attribute("#scores", "aria-invalid") == "true"
    assert page.get_attribute("#stock", "aria-invalid") != "true"
    _shot(page, "13-advice-error")
    # More seconds than the server allows.
    page.fill("#scores", "")
    page.fill("#budget", "99")
    page.click("#advise-button")
    page.wait_for_function("document.querySelector('#facts-error').textContent.includes('cap')")
    assert "Too many seconds to think" in page.inner_text("#facts-error")
    assert page.get_attribute("#budget", "aria-invalid") == "true"
    assert page.get_attribute("#scores", "aria-invalid") != "true"
    page.fill("#budget", "0.5")
    # Unseen cards that cannot be go to their own box, as for Analyze.
    page.fill("#scores", "")
    page.fill("#unseen", "7h 7h 7h")
    page.click("#advise-button")
    page.wait_for_selector("#unseen-error:not([hidden])")
    assert "7h" in page.inner_text("#unseen-error") and page.is_hidden("#facts-error")
    assert page.get_attribute("#unseen", "aria-invalid") == "true"
    page.fill("#unseen", "")
    # A bad position still goes to the position's box.
    page.fill("#notation", "Kh Kd Xc / Ac")
    page.click("#advise-button")
    page.wait_for_selector("#entry-error:not([hidden])")
    assert "bad card 'Xc'" in page.inner_text("#entry-error") and page.is_hidden("#facts-error")


def test_a_busy_or_late_advice_says_so(watched: Watched) -> None:
    page = _open(watched)
    busy = {
        "error": {
            "type": "busy",
            "message": "the solver did not answer within 4 s",
            "field": None,
            "problems": ["the solver did not answer within 4 s"],
        }
    }
    page.route(
        "**/v1/advise",
        lambda route: route.fulfill(status=503, content_type="application/json", body=json.dumps(busy)),
    )
    page.fill("#notation", ADVICE_POSITION)
    page.click("#advise-button")
    page.wait_for_selector("#entry-error:not([hidden])")
    text = page.inner_text("#entry-error")
    assert "busy" in text and "did not answer within 4 s" in text
    assert page.is_hidden("#advice-view")
    assert not page.is_disabled("#advise-button")


def test_advice_on_a_phone_fits_and_its_targets_are_40_px(watched: Watched) -> None:
    page = watched.page
    page.set_viewport_size({"width": 360, "height": 800})
    _open(watched)
    page.fill("#notation", ADVICE_POSITION)
    page.select_option("#players", "2")
    _advise(page)
    page.wait_for_selector("#advice-options")
    for summary in page.locator("#advice-options .advice-table > summary").all():
        summary.click()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the page is {width} px wide on a 360 px screen"
    targets = _boxes(page, "#advise-button, #facts-box summary, #facts-box input, #advice-view summary")
    assert len(targets) >= 1 + 1 + 5 + 1
    small = [box for box in targets if box["width"] < 40 or box["height"] < 40]
    assert not small, f"advice touch targets under 40 px on a 360 px phone: {small[:5]}"
    entry = page.locator(".entry").bounding_box()
    view = page.locator("#advice-view").bounding_box()
    assert entry and view and view["y"] >= entry["y"] + entry["height"] - 1
    _shot(page, "14-phone-advice")


def test_advice_in_rummikub_shows_tiles(watched: Watched) -> None:
    page = _open(watched, "?v=rummikub")
    page.fill("#notation", "10h Jh Qh / Kh 5c 7d")
    data = _advise(page)
    page.wait_for_selector("#advice-options")
    assert "Draw a tile instead of melding" in page.inner_text("#advice-options")
    assert re.search(r"Unseen tiles\s+\d+", page.inner_text("#advice-facts"))
    index = next(i for i, o in enumerate(data["options"]) if o["kind"] == "play")
    item = page.locator("#advice-options > li").nth(index)
    assert item.locator(".mini-tile").count() >= 1
    assert not item.locator(".advice-head svg use[href^='#suit-']").count()
    item.locator(".advice-table > summary").click()
    faces = [text.split()[0] for text in item.locator(".advice-table .card").all_inner_texts()]
    assert "13" in faces and "K" not in faces


def test_advice_says_when_every_deal_is_an_even_race(watched: Watched) -> None:
    """Machiavelli, no deal with a hand going out in six turns: every value is 0 with no
    spread, which read as a certain draw; the page says why, as the CLI does."""
    page = _open(watched)
    page.select_option("#variant", "machiavelli")
    page.fill("#notation", "5s 6s 7s | 9h 9d 9c | Jd Qd Kd / 8s 9s 2c 2d 4h")
    data = _advise(page)
    page.wait_for_selector("#advice-options")
    assert all(option["value"]["high"] == option["value"]["low"] == 0 for option in data["options"])
    assert "No deal saw a hand go out" in page.inner_text("#advice-even")
    page.select_option("#variant", "manipulation")
    page.fill("#notation", ADVICE_POSITION)
    _advise(page)
    page.wait_for_selector("#advice-options")
    assert not page.locator("#advice-even").count()


def test_a_shared_link_opens_with_what_it_was_shared_for(watched: Watched) -> None:
    """Issue 37: a link filled the form and waited for Hint.  A link opens with its hint (the
    default), or the analysis or advice it names (``show``); the address says what is shown."""
    position = "5h 6h 7h | Kc Kd Ks / 8h 2c 9d Qd *"
    plain = urllib.parse.urlencode({"p": position, "v": "rummikub", "players": "2"})
    page = _open(watched, f"?{plain}")
    page.wait_for_selector("#hint-view:not([hidden])")
    assert "Best play" in page.inner_text("#status")
    assert "show" not in urllib.parse.parse_qs(urllib.parse.urlparse(page.url).query)  # the hint: the default
    page.click("#analyze-button")
    page.wait_for_selector("#analysis-view:not([hidden])")
    shared = urllib.parse.urlparse(page.url)
    assert urllib.parse.parse_qs(shared.query)["show"] == ["analysis"]
    other = watched.page.context.new_page()
    try:
        other.goto(page.url)
        other.wait_for_selector("#analysis-view:not([hidden])")
        assert other.is_hidden("#hint-view")
        assert other.input_value("#notation") == position
    finally:
        other.close()
    quiet = _open(watched, f"?{plain}&show=none")
    assert quiet.input_value("#notation") == position
    assert (
        quiet.is_hidden("#hint-view")
        and quiet.is_hidden("#analysis-view")
        and quiet.is_hidden("#advice-view")
    )
