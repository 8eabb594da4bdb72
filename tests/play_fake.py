"""A scripted stand-in for the games API (``/v1/games...``, ``/v1/replays/...``), served to
the page through playwright's request interception, for the Play tab's browser tests that
check the page's own behaviour (a refused play keeps its arrangement, a stale counter,
a replay shows no control...) with answers known in advance.

The game is a short Rummikub game against ``greedy`` in the shapes of the contract
(issue #33): the player opens with 10h Jh Qh, draws, then goes out with 2s 3s and the
joker as 4s.  Each answer is the state the contract describes; the counter (``turn``)
counts the entries (actions, help, advice), and a request with another counter gets 409.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

__all__ = ["GOING_OUT", "OPENING", "FakeGames"]

OPENING = "10h Jh Qh"
BOT_MELD = ["5s", "6s", "7s"]
GOING_OUT = "10h Jh Qh | 5s 6s 7s | 2s 3s *4s"
GAME_ID = "g-secret-0123456789abcdef"
REPLAY_ID = "r-shared-0123456789abcdef"
BOT_HAND_END = ["Kc", "Kd", "9d", "8c", "2c", "3d", "4c", "11c", "12d", "5h", "6h"]
PLOT = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="240" viewBox="0 0 100 40" onload="alert(1)">'
    "<script>window.plotScript = true</script><title>Value</title>"
    "<style>body { visibility: hidden }</style>"
    '<a href="#value"><set attributeName="href" to="javascript:window.plotSet = true"/>'
    '<animate attributeName="href" values="javascript:window.plotSet = true"/><text y="5">Value</text></a>'
    '<polyline points="0,30 50,10 100,20" fill="none" stroke="black"/></svg>'
)


def _meld_key(text: str) -> list[tuple[str, ...]]:
    """A table's notation as sorted melds of sorted pieces (the order of a meld is free)."""
    return sorted(tuple(sorted(meld.split())) for meld in text.split("|") if meld.strip())


def _error(status: int, kind: str, message: str, problems: list[str] | None = None) -> tuple[int, Any]:
    return status, {
        "error": {"type": kind, "message": message, "field": None, "problems": problems or [message]}
    }


class FakeGames:
    """One scripted game; ``handle(method, path, body)`` answers as the API would."""

    def __init__(self) -> None:
        self.step = 0
        self.turn = 0
        self.help_used: list[dict[str, Any]] = []
        self.requests: list[tuple[str, str, Any]] = []
        self.advice: Any = None
        self.imported = False
        self.extra: dict[str, Any] = {}
        """Fields that replace the scripted state's (e.g. a knock decision)."""

    # --- the states -------------------------------------------------------------------

    def _players(self, mine: int, bots: int, totals: tuple[int, int] = (0, 0)) -> list[dict[str, Any]]:
        return [
            {"seat": 0, "name": "you", "cards": mine, "total": totals[0]},
            {"seat": 1, "name": "greedy", "cards": bots, "total": totals[1]},
        ]

    def state(self, *, replay: bool = False) -> dict[str, Any]:
        opening = [["10h", "Jh", "Qh"], BOT_MELD]
        table: list[list[str]] = [[], opening, opening, [*opening, ["2s", "3s", "*4s"]]][self.step]
        hand = [["10h", "Jh", "Qh", "2s", "*"], ["2s", "*"], ["2s", "*", "3s"], []][self.step]
        drawn = ["3s"] if self.step == 2 else []
        bots = [14, 11, 12, 12][self.step]
        turns = [
            [],
            [self._bot_turn("play", table, 11, ["Start new meld 5s 6s 7s with 5s 6s 7s from the hand."])],
            [self._bot_turn("draw", table, 12, [])],
            [],
        ][self.step]
        over = self.step == 3
        state: dict[str, Any] = {
            "id": None if replay else GAME_ID,
            "replay_id": REPLAY_ID,
            "read_only": replay,
            "variant": "rummikub",
            "seat": 0,
            "turn": self.turn,
            "round": 1,
            "over": over,
            "to_move": 0,
            "phase": "over" if over else "meld",
            "can": [] if over or replay else ["play", "draw"],
            "opened": self.step > 0,
            "final_turn": False,
            "table": table,
            "table_text": " | ".join(" ".join(meld) for meld in table),
            "hand": hand,
            "hand_text": " ".join(hand),
            "drawn": drawn,
            "players": self._players(len(hand), bots, (109, 0) if over else (0, 0)),
            "stock": 80 - self.step,
            "bot_turns": turns,
            "round_end": None,
            "result": None,
            "help_used": list(self.help_used),
            "seed": 7 if over else None,
        }
        if over:
            state["round_end"] = {
                "round": 1,
                "reason": "out",
                "knocker": None,
                "out": 0,
                "hands": [[], BOT_HAND_END],
                "points": [0, 109],
                "scores": [109, 0],
                "winners": [0],
                "undercut": [],
                "totals": [109, 0],
            }
            state["result"] = {"winners": [0], "totals": [109, 0]}
        if self.imported:
            state["source"] = "imported"
        return {**state, **self.extra}

    def _bot_turn(self, kind: str, table: list[list[str]], cards: int, steps: list[str]) -> dict[str, Any]:
        return {
            "seat": 1,
            "name": "greedy",
            "round": 1,
            "kind": kind,
            "steps": steps,
            "table": copy.deepcopy(table),
            "cards_after": cards,
        }

    # --- the answers ------------------------------------------------------------------

    def handle(self, method: str, path: str, body: Any) -> tuple[int, Any]:
        """The status and the JSON (or text, for the export) the API would answer."""
        self.requests.append((method, path, body))
        if method == "POST" and path == "/v1/games":
            return 201, {"id": GAME_ID, "replay_id": REPLAY_ID, "state": self.state()}
        if method == "POST" and path == "/v1/games/import":
            self.step, self.imported = 3, True
            return 201, {"id": GAME_ID, "replay_id": REPLAY_ID, "state": self.state()}
        if path == f"/v1/replays/{REPLAY_ID}":
            return 200, self.state(replay=True)
        match = re.fullmatch(rf"/v1/games/{GAME_ID}(/\w+)?", path)
        if not match:
            return _error(404, "not_found", "No game has this id.")
        return self._game(method, match.group(1) or "", body)

    def _game(self, method: str, what: str, body: Any) -> tuple[int, Any]:
        if method == "GET" and what == "":
            return 200, self.state()
        if what == "/review":
            return (200, self.review()) if self.step == 3 else _error(409, "review", "The game is not over.")
        if what == "/export":
            return 200, '{"kind": "header"}\n{"kind": "action"}\n'
        if body.get("turn") != self.turn:
            # The service's words (service/routes/games.py: _stale).
            message = (
                f"the game is at turn {self.turn}, not {body.get('turn')}: reload the game and act again"
            )
            return _error(409, "stale", message)
        if self.imported:
            return _error(409, "read_only", "An imported game cannot be played.")
        if what == "/help":
            return self._help(int(body["level"]))
        if what == "/advise":  # an entry of the game, not listed in help_used (as the API does)
            self.turn += 1
            return 200, self.advice
        return self._act(body["action"])

    def _help(self, level: int) -> tuple[int, Any]:
        self.help_used.append({"turn": self.turn, "level": level})
        self.turn += 1
        table = OPENING if self.step == 0 else GOING_OUT
        cards = ["10h", "Jh", "Qh"] if self.step == 0 else ["2s", "3s", "*"]
        answer: dict[str, Any] = {
            "level": level,
            "exists": self.step != 1,
            "points_left": 32 if self.step == 0 else 0,
        }
        if level >= 2:
            answer["cards"] = cards if answer["exists"] else []
        if level >= 3 and answer["exists"]:
            answer["table"] = table
            answer["steps"] = [f"Start new meld {' '.join(cards)} with {' '.join(cards)} from the hand."]
        return 200, answer

    def _act(self, action: dict[str, Any]) -> tuple[int, Any]:
        expected = {0: ("play", OPENING), 1: ("draw", None), 2: ("play", GOING_OUT)}.get(self.step)
        if expected is None:
            return _error(409, "not_your_turn", "The game is over.")
        kind, table = expected
        if action.get("type") != kind:
            return _error(422, "illegal_play", f"Not now: {action.get('type')}.")
        if table is not None and _meld_key(action.get("table", "")) != _meld_key(table):
            reasons = ["meld 3 (2s) is not a legal meld: a meld has at least 3 tiles"]
            return _error(422, "illegal_play", "The play is not legal: " + reasons[0] + ".", reasons)
        self.step += 1
        self.turn += 1 + (1 if self.step < 3 else 0)  # the bot's turn is an entry too
        return 200, self.state()

    def review(self) -> dict[str, Any]:
        return {
            "seat": 0,
            "accuracy": 87.5,
            "bands": {"ok": 2, "inaccuracy": 1, "mistake": 0, "blunder": 0},
            "loss_per_decision": 1.4,
            "luck": 3.2,
            "decisions": [
                {
                    "round": 1,
                    "turn": 1,
                    "played": "play 10h Jh Qh",
                    "best": "play 10h Jh Qh",
                    "loss": 0,
                    "band": "ok",
                },
                {"round": 1, "turn": 3, "played": "draw", "best": "draw", "loss": 0, "band": "ok"},
                {
                    "round": 1,
                    "turn": 5,
                    "played": "play 2s 3s *4s",
                    "best": "play 2s 3s *4s",
                    "loss": 4.2,
                    "band": "inaccuracy",
                },
            ],
            "plot_svg": PLOT,
            "puzzles": [
                {
                    "kind": "mistake",
                    "question": "Your move: play (give the table after it), or draw?",
                    "made": "draw",
                    "solution": {"action": "play", "description": "play 2s 3s *4s"},
                    "link": "/?p=10h+Jh+Qh+%2F+2s+*&v=rummikub&show=none",
                }
            ],
        }

    def route(self, route: Any) -> None:
        """Playwright's route handler: answer the request from the script."""
        request = route.request
        path = re.sub(r"^https?://[^/]+", "", request.url).split("?")[0]
        body = None
        if request.post_data:
            try:
                body = json.loads(request.post_data)
            except json.JSONDecodeError:
                body = request.post_data
        status, answer = self.handle(request.method, path, body)
        if isinstance(answer, str):
            route.fulfill(status=status, content_type="application/x-ndjson", body=answer)
        else:
            route.fulfill(status=status, content_type="application/json", body=json.dumps(answer))
