"""The table in the order the person playing last saw it (``solver.shown``)."""

from __future__ import annotations

from solver.position import Hand, Position, Table
from solver.shown import ShownTable, arranged, same_melds
from solver.variants import Variant

MANIPULATION = Variant.manipulation()


def shown(text: str) -> Table:
    return Table.parse(text, keep_order=True)


def test_melds_keep_their_places_and_new_ones_come_after() -> None:
    before = Position(shown("Ks Kh Kd | 5s 6s 7s | 8s 9s 10s"), Hand.parse("Kc 2h 3h 4h"))
    after = Table.parse("5s 6s 7s 8s 9s 10s | 2h 3h 4h | Ks Kh Kd Kc")  # canonical
    # The kings grow in place, the two spade runs join in the first one's place (the
    # third meld is gone: no gap), and the new hearts come after them.
    assert str(arranged(before, after, variant=MANIPULATION)) == "Ks Kh Kd Kc | 5s 6s 7s 8s 9s 10s | 2h 3h 4h"


def test_an_untouched_table_keeps_its_order() -> None:
    before = Position(shown("Qs Qh Qd | 2c 3c 4c | 9h 9d 9c"), Hand.parse("5c Js Jh Jd"))
    after = Table.parse("2c 3c 4c 5c | Js Jh Jd | 9h 9d 9c | Qs Qh Qd")
    assert (
        str(arranged(before, after, variant=MANIPULATION)) == "Qs Qh Qd | 2c 3c 4c 5c | 9h 9d 9c | Js Jh Jd"
    )


def test_a_table_that_is_no_play_comes_back_as_it_is() -> None:
    before = Position(shown("Qs Qh Qd"), Hand.parse("5c"))
    after = Table.parse("Qs Qh | Qd 5c")
    assert arranged(before, after, variant=MANIPULATION) is after


def test_same_melds_ignores_the_order() -> None:
    assert same_melds(shown("Qs Qh Qd | 2c 3c 4c"), Table.parse("2c 3c 4c | Qs Qh Qd"))
    assert not same_melds(shown("Qs Qh Qd | 2c 3c 4c"), Table.parse("2c 3c 4c 5c | Qs Qh Qd"))
    assert not same_melds(shown("Qs Qh Qd | Qs Qh Qd"), Table.parse("Qs Qh Qd"))


def test_a_shown_table_follows_plays_and_keeps_the_chosen_order() -> None:
    table = ShownTable()
    start = Table.parse("2c 3c 4c | Qs Qh Qd")
    assert table.of(start) is start  # a table not followed yet is shown as it is
    assert table.of(Table.parse("Qs Qh Qd | 2c 3c 4c", keep_order=True)) is start  # the same melds
    table.choose(shown("Qs Qh Qd Qc | 2c 3c 4c"))
    old, new = table.follow(
        Position(start, Hand.parse("Qc")), Table.parse("2c 3c 4c | Qs Qh Qd Qc"), variant=MANIPULATION
    )
    assert (str(old), str(new)) == ("2c 3c 4c | Qs Qh Qd", "Qs Qh Qd Qc | 2c 3c 4c")  # the order chosen
    assert table.of(Table.parse("2c 3c 4c | Qs Qh Qd Qc")) is new
    table.choose(shown("Kh Kd Kc | Qs Qh Qd Qc | 2c 3c 4c"))  # chosen, then not played
    play = Table.parse("2c 3c 4c 5c | Qs Qh Qd Qc")
    _, new = table.follow(Position(table.table, Hand.parse("5c")), play, variant=MANIPULATION)
    assert str(new) == "Qs Qh Qd Qc | 2c 3c 4c 5c"  # the rule's order: the choice is dropped
    table.reset()
    assert table.table == Table()
