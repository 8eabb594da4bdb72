"""Browser tests of the Play tab against the real games API (issue #33): whole seeded games
played through the page, a reload and a server restart mid-game, the replay link.

``rummy serve`` keeps its games in a SQLite file of the test's own (``RUMMY_DB``); the
restart test stops that server and starts it again on the same port and database.  The
player's turns are driven as a person would with the help: "Is there a play?", and when
there is one "Show the play", "Put this play on the table" and Play; otherwise Draw.
Rummikub against ``greedy`` with seed 21 ends after 17 decisions of the player (the
shortest of the first 40 seeds), so that a whole game stays well under a minute.
"""

from __future__ import annotations

import os
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from web_kit import Server, Watched, chromium, games_server, shot

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page, ViewportSize

SEED = 21
PHONE: ViewportSize = {"width": 360, "height": 800}
MOST_DECISIONS = 60
"""A game of more decisions than this is not ending: the test stops it."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``rummy serve`` with a games database of its own, for the module's tests
    (``RUMMY_WEB_URL``: a server already running instead)."""
    if os.environ.get("RUMMY_WEB_URL"):
        yield Server.given(os.environ["RUMMY_WEB_URL"])
        return
    with games_server(tmp_path_factory.mktemp("play-game")) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[BrowserContext]:
    with chromium() as context:
        yield context


@pytest.fixture
def watched(browser: BrowserContext, server: Server) -> Iterator[Watched]:
    page = browser.new_page()
    page.add_init_script("localStorage.setItem('rummy.stepBots', 'no')")  # the bots' turns at once
    seen = Watched(page, server.url)
    try:
        yield seen
    finally:
        page.close()
    seen.check()


def _new_game(seen: Watched) -> Page:
    """A new Rummikub game against greedy, seed SEED, opened at its address."""
    page = seen.page
    page.goto(f"{seen.base_url}/play")
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#game-variant", "rummikub")
    page.select_option("#game-players", "2")
    page.select_option("#game-opponent-1", "greedy")
    page.fill("#game-seed", str(SEED))
    page.click("#new-game")
    page.wait_for_selector("#game-view[data-turn]")
    assert "/play/" in page.url
    _settled(page)
    return page


def _cards(page: Page, selector: str) -> list[str]:
    found: list[str] = page.eval_on_selector_all(selector, "nodes => nodes.map(n => n.dataset.card)")
    return found


def _table(page: Page) -> list[list[str]]:
    melds: list[list[str]] = page.eval_on_selector_all(
        "#play-table .meld", "ms => ms.map(m => [...m.querySelectorAll('.card')].map(c => c.dataset.card))"
    )
    return melds


def _turn(page: Page) -> str | None:
    """The game view's turn counter (its data-turn)."""
    return page.get_attribute("#game-view", "data-turn")


def _help(page: Page, level: int) -> str:
    """Ask the help of a level; its answer's text."""
    page.evaluate("document.querySelector('#help-view').replaceChildren()")
    page.click(f"#help-{level}")
    page.wait_for_selector("#help-view .help-verdict")
    return page.inner_text("#help-view")


SETTLED = """() => {
  const shown = (el) => el !== null && !el.hidden && el.offsetParent !== null;
  const help = document.querySelector("#help-1");
  return shown(document.querySelector("#game-result")) || (shown(help) && !help.disabled);
}"""
"""Whether the page waits for the player again: the bots' turns stepped through, and either
the player's controls ready or the game's result shown."""


def _settled(page: Page) -> None:
    """Wait until the bots' turns have been shown and the player may decide (or the game
    is over): a game a bot ends shows its result only after its turn's steps."""
    page.wait_for_function(SETTLED, timeout=60_000)


def _after(page: Page, button: str) -> None:
    """Press a move's button and wait for the game's next state to be drawn and settled."""
    before = _turn(page)
    page.click(button)
    page.wait_for_selector(f"#game-view:not([data-turn='{before}'])", timeout=30_000)
    _settled(page)


def _decide(page: Page, *, cards: bool = False) -> str:
    """One decision of the player, made with the help; "play" or "draw"."""
    verdict = _help(page, 1)
    if "There is a play" not in verdict:
        _after(page, "#act-draw")
        return "draw"
    if cards:
        assert "It uses" in _help(page, 2)
        assert page.locator("#play-hand .card.hinted").count() >= 1
    _help(page, 3)
    page.click("#help-apply")
    _after(page, "#act-play")
    assert page.is_hidden("#act-error"), page.inner_text("#act-error")
    return "play"


def _over(page: Page) -> bool:
    return page.is_visible("#game-result")


def _play_to_the_end(page: Page) -> list[str]:
    """The player's decisions until the game is over (advice asked once, help levels 1-3)."""
    made: list[str] = []
    while not _over(page):
        assert len(made) < MOST_DECISIONS, "the game does not end"
        if len(made) == 1:
            page.click("#play-advise")
            page.wait_for_selector("#play-advice-options .advice-option", timeout=60_000)
        made.append(_decide(page, cards=not made))
    return made


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_a_whole_seeded_game_played_with_help_and_advice_ends_with_the_review(
    watched: Watched, viewport: str, tmp_path: Path
) -> None:
    page = watched.page
    if viewport == "phone":
        page.set_viewport_size(PHONE)
    _new_game(watched)
    made = _play_to_the_end(page)
    assert "play" in made and "draw" in made
    assert page.inner_text("#result-winners")
    assert f"seed {SEED}" in page.inner_text("#game-status"), "the seed is told once the game is over"
    assert page.locator("#round-end .scores tbody tr").count() == 2
    page.wait_for_selector("#review-facts", timeout=60_000)
    decisions = page.locator("#review-decisions tbody tr").count()
    assert 1 <= decisions <= len(made), "the review weighs the decisions that had a choice"
    assert "Accuracy" in page.inner_text("#review-facts")
    assert page.is_hidden("#turn-controls")
    used = page.inner_text("#game-view .game-top") + page.inner_text("#help-used")
    assert used
    if viewport == "phone":
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the page is {width} px wide on a phone"
    shot(page, f"play-game-over-{viewport}")
    if viewport == "desktop":
        _export_and_import(watched, tmp_path)


def _export_and_import(seen: Watched, folder: Path) -> None:
    """The finished game's export, imported again: read-only, with its review."""
    page = seen.page
    with urllib.request.urlopen(f"{seen.base_url}{page.get_attribute('#export-link', 'href')}") as answer:
        assert answer.headers["content-type"].startswith("application/x-ndjson")
        log = answer.read()
    path = folder / "game.jsonl"
    path.write_bytes(log)
    played = page.url
    page.goto(f"{seen.base_url}/play")
    page.set_input_files("#import-file", str(path))
    page.wait_for_selector("#review-facts", timeout=60_000)
    assert page.url != played and "/play/" in page.url
    assert page.is_visible("#read-only-note") and page.is_hidden("#turn-controls")
    assert page.locator("#review-decisions tbody tr").count() >= 1


def test_a_reload_mid_game_continues_where_it_was(watched: Watched) -> None:
    page = _new_game(watched)
    for _ in range(2):
        _decide(page)
    table, hand, turn = _table(page), _cards(page, "#play-hand .card"), _turn(page)
    page.reload()
    page.wait_for_selector(f"#game-view[data-turn='{turn}']")
    _settled(page)
    assert _table(page) == table and _cards(page, "#play-hand .card") == hand
    _decide(page)
    assert _turn(page) != turn


def test_a_refused_play_says_why_and_keeps_the_arrangement(watched: Watched) -> None:
    page = _new_game(watched)
    first = _cards(page, "#play-hand button.card")[0]
    page.click(f"#play-hand button.card[data-card='{first}']")
    page.click("#turn-new-meld")
    arranged = _table(page)
    turn = _turn(page)
    page.click("#act-play")
    page.wait_for_selector("#act-error:not([hidden])")
    assert "referee" in page.inner_text("#act-error")
    assert page.locator("#act-error li").count() + len(page.inner_text("#act-error")) > 40, (
        "the reasons are said"
    )
    assert page.locator("#act-error .mini-tile").count() >= 1, "the reasons show the tiles as tiles"
    said = page.inner_text("#act-error")
    assert not re.search(rf"(?<!\S){re.escape(first)}(?!\S)", said), f"notation in a Rummikub reason: {said}"
    assert _table(page) == arranged, "a refused play leaves the arrangement as it was"
    assert _turn(page) == turn, "nothing was stored"
    page.click("#turn-undo")
    assert [first] not in _table(page)


def test_a_move_from_a_stale_page_shows_the_game_as_it_stands(watched: Watched) -> None:
    page = _new_game(watched)
    other = page.context.new_page()
    try:
        other.goto(page.url)
        other.wait_for_selector("#turn-controls:not([hidden])")
        _after(page, "#act-draw")  # the first page moves on
        turn = _turn(page)
        other.click("#act-draw")  # the second still shows the turn before
        other.wait_for_selector("#act-error:not([hidden])")
        assert "moved on" in other.inner_text("#act-error")
        assert _turn(other) == turn
        assert _cards(other, "#play-hand .card") == _cards(page, "#play-hand .card")
    finally:
        other.close()


def test_a_restarted_server_continues_the_game(watched: Watched, server: Server) -> None:
    if server.external:
        pytest.skip("RUMMY_WEB_URL: the server running there is not this test's to restart")
    page = _new_game(watched)
    _decide(page)
    table, hand, turn = _table(page), _cards(page, "#play-hand .card"), _turn(page)
    server.stop()
    server.start()
    _decide(page)  # the page goes on with the same id, against the new server process
    assert _turn(page) != turn
    page.reload()
    page.wait_for_selector("#game-view[data-turn]")
    _settled(page)
    assert page.is_visible("#turn-controls") or _over(page)
    assert table or hand  # what was shown before the restart was a real game


def test_the_replay_link_shows_the_game_and_no_way_to_act(watched: Watched) -> None:
    page = _new_game(watched)
    _decide(page)
    table, hand = _table(page), _cards(page, "#play-hand .card")
    replay = page.get_attribute("#replay-link", "href")
    assert replay and replay.startswith("/replay/")
    game_url = page.url
    page.goto(f"{watched.base_url}{replay}")
    page.wait_for_selector("#game-view[data-turn]")
    assert page.is_visible("#read-only-note")
    assert _table(page) == table and _cards(page, "#play-hand .card") == hand
    assert page.is_hidden("#turn-controls")
    visible = page.eval_on_selector_all(
        "#game-view button", "nodes => nodes.filter(n => n.offsetParent !== null).map(n => n.textContent)"
    )
    assert visible == [], f"a replay shows no control: {visible}"
    assert page.locator("#panel-play button.card").count() == 0
    assert game_url.split("/play/")[1] not in page.inner_html("#game-view"), (
        "a replay never shows the secret id"
    )
    shot(page, "play-game-replay")
