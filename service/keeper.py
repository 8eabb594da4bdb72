"""The application's game store: opened once, on first use (or given), closed at shutdown.

``rummy serve`` opens the store before it says it serves (a bad ``RUMMY_DB`` stops it
there), hands it to ``create_app`` and closes it when the server stops; an application
built without one (the tests of the other endpoints, a server embedded elsewhere) opens
the store named by its settings the first time a games request needs it, so that
building an app touches no database.
The keeper also holds answers that cannot change, keyed by the game and its number of
entries (entries are only ever added, each number once, so the key names one state of
the game, on every server sharing the store): the finished games' reviews (a review
takes seconds) and the games' latest states (a read after an action, or a reload, need
not replay the game).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from service.games import GameStore, open_store

__all__ = ["REVIEWS_KEPT", "GameKeeper"]

REVIEWS_KEPT = 64
"""Finished games whose review is kept in memory (each a few tens of kilobytes, with its plot)."""
STATES_KEPT = 512
"""Games whose latest state is kept in memory (a few kilobytes each)."""


class GameKeeper:
    """The store of the games (``get``) and the reviews already made (``review``/``keep_review``)."""

    def __init__(self, url: str | None, store: GameStore | None = None) -> None:
        self.url = url
        self._store = store
        self._owned = store is None
        """Whether the keeper opens (and so closes) the store; a store given is its giver's."""
        self._lock = threading.Lock()
        self._reviews: OrderedDict[tuple[str, int], bytes] = OrderedDict()
        self._states: OrderedDict[tuple[str, int], bytes] = OrderedDict()

    def get(self) -> GameStore:
        """The store, opened now if it was not (``service.games.StoreError`` if it cannot be)."""
        with self._lock:
            if self._store is None:
                self._store = open_store(self.url)
            return self._store

    def close(self) -> None:
        """Close the store if the keeper opened it (it opens again if a request needs it)."""
        with self._lock:
            if not self._owned:
                return
            store, self._store = self._store, None
        if store is not None:
            store.close()

    def review(self, game_id: str, turn: int) -> bytes | None:
        """The review made of this game at this turn, if it is still kept."""
        return self._get(self._reviews, (game_id, turn))

    def keep_review(self, game_id: str, turn: int, answer: bytes) -> None:
        self._put(self._reviews, (game_id, turn), answer, REVIEWS_KEPT)

    def state(self, game_id: str, turn: int) -> bytes | None:
        """The state (``GameState``, encoded) of this game at this turn, if it is kept."""
        return self._get(self._states, (game_id, turn))

    def keep_state(self, game_id: str, turn: int, answer: bytes) -> None:
        self._put(self._states, (game_id, turn), answer, STATES_KEPT)

    def _get(self, kept: OrderedDict[tuple[str, int], bytes], key: tuple[str, int]) -> bytes | None:
        with self._lock:
            found = kept.get(key)
            if found is not None:
                kept.move_to_end(key)
            return found

    def _put(
        self, kept: OrderedDict[tuple[str, int], bytes], key: tuple[str, int], answer: bytes, most: int
    ) -> None:
        with self._lock:
            kept[key] = answer
            kept.move_to_end(key)
            while len(kept) > most:
                kept.popitem(last=False)
