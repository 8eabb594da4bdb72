"""The prepared data of one hint problem: everything the model needs, as plain counts.

Cards are identified by ``Card.index`` (0..51).  The instance is built completely
before any model exists (CP-SAT Primer: data, model, solve and extract apart), and
is the place where the catalogue is pruned to the melds the cards could form.

An old meld without table jokers may be kept whole by growing at its ends (its
``extension_chains``).  One with table jokers is kept whole when its real cards and its
jokers all end in one meld, a joker perhaps declared as another card of that meld (a
joker moving along its own meld, freed by a real copy of its card on the table): its
``forms`` list the melds that can hold it so, each as slots around its real cards.  A
joker moving along its meld may pass another old meld of the same suit, which then lies
whole inside the same meld (``Nest``): two old melds kept in one meld that cannot be cut
into two.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from functools import lru_cache

from solver.cards import ACE_HIGH_POSITION, ALL_CARDS, CARD_KINDS, Card, Joker, Rank, Suit
from solver.melds import Meld, MeldTemplate, formable, indexed_catalogue, position_card
from solver.position import Position
from solver.solution import Objective
from solver.variants import Variant

__all__ = ["Instance", "KeepForm", "Nest", "OldMeld", "build_instance"]


MAX_SEQUENCE_PIECE = 5
"""Sequences longer than this are unions of shorter ones; the model uses pieces of 3-5."""

EXTENSION_REACH = 2
"""Cards a kept sequence may grow at each end.  Three or more cards beyond an end form
a meld of their own, which leaves the old meld just as whole, so two is enough."""


@dataclass(frozen=True, slots=True)
class KeepForm:
    """One meld that can hold an old meld with table jokers whole: a sequence through its
    real cards, or a group of their rank, as slots around the real cards.

    The old meld's jokers sit in some of the slots, each declared as its slot's card (its
    old card, or another, freed by a real copy of its old card on the table); the other
    slots in use hold real cards or other jokers.  Slots are numbered ``inside`` first,
    then chain by chain, nearest first (``slot_cards``).
    """

    inside: tuple[int, ...]
    """Card indices of the slots between the real cards: in use whenever the form is."""
    chains: tuple[tuple[int, ...], ...]
    """Card indices outward from the real cards, nearest first, up to the end of the suit
    (a sequence), or one missing suit each (a group); a slot is in use only if the one
    nearer the real cards is."""
    adjacent: tuple[int, ...]
    """Slot numbers right beyond the ends of the old meld as it lies (its own form only):
    where laying off a card keeps it whole."""
    suit: int = -1
    """A sequence's suit, or -1 for a group."""
    positions: tuple[tuple[int, ...], ...] = ()
    """A sequence's chains as sequence positions (as ``chains``)."""
    pinnable: frozenset[int] | None = None
    """The cards of the slots the meld's jokers may take, None for any.  A meld whose
    jokers no real card can free (no real copy of their cards on the table or in the
    hand) keeps them on slots of their own cards: its own form only, chains cut two
    slots beyond the last such slot, and it nests no other meld (a joker passing one is
    a freed joker, whose own meld holds the other)."""

    @property
    def slot_cards(self) -> tuple[int, ...]:
        """Every slot's card index, in slot order."""
        return self.inside + tuple(c for chain in self.chains for c in chain)


@dataclass(frozen=True, slots=True)
class Nest:
    """Another old meld that a sequence keep form may hold whole besides its own: a
    sequence of the form's suit whose real cards all lie on one of the form's chains.
    Its real cards take those slots and its jokers sit on the form's slots like the
    form's own.  The model nests it only where a joker lies beyond it on that chain (else
    the meld could be cut in two, each old meld kept in its own)."""

    meld: int
    """The nested old meld's number."""
    chain: int
    """The form's chain its real cards lie on."""
    slots: tuple[int, ...]
    """Their slot numbers on that chain (from 0, nearest the form's real cards first)."""


@dataclass(frozen=True, slots=True)
class OldMeld:
    """A meld of the table before the play, with the slots it may grow into if kept whole.

    ``extension_chains`` are chains of card indices outward from each end of a sequence
    (nearest first), or the one missing suit of a three-card group, for a meld without
    table jokers.  A meld with table jokers has ``forms`` instead (and no chains).
    """

    meld: Meld
    real: tuple[tuple[int, int], ...]
    """(card index, count) of its real cards."""
    jokers: tuple[tuple[int, int], ...]
    """(declared card index, count) of its jokers."""
    extension_chains: tuple[tuple[int, ...], ...]
    forms: tuple[KeepForm, ...] = ()
    """The melds that can hold it whole (see ``KeepForm``); empty without table jokers."""
    nests: tuple[tuple[Nest, ...], ...] = ()
    """Per form, the other old melds it may hold whole too (``Nest``)."""


@dataclass(frozen=True, slots=True)
class Instance:
    """Counts and candidate melds for one position under one variant."""

    position: Position
    variant: Variant
    objective: Objective
    keep_jokers: bool
    opened: bool
    table_real: tuple[int, ...]
    """Real table cards per card index."""
    hand_real: tuple[int, ...]
    hand_jokers: int
    table_jokers: tuple[int, ...]
    """Table jokers per declared card index."""
    templates: tuple[MeldTemplate, ...]
    template_cards: tuple[tuple[int, ...], ...]
    old_melds: tuple[OldMeld, ...]

    @property
    def total_jokers(self) -> int:
        return self.hand_jokers + sum(self.table_jokers)

    @property
    def opening_required(self) -> bool:
        return not self.opened and self.variant.opening_points > 0

    def hand_weight(self, index: int) -> int:
        """What one hand card of this index counts toward the objective."""
        if self.objective == "cards":
            return 1
        return self.variant.card_points(ALL_CARDS[index])

    @property
    def joker_weight(self) -> int:
        return 1 if self.objective == "cards" else self.variant.joker_points


def build_instance(
    position: Position,
    variant: Variant,
    *,
    objective: Objective = "points",
    keep_jokers: bool = False,
    opened: bool = True,
) -> Instance:
    """Count the cards and keep only the candidate melds the available cards could form."""
    table_real = [0] * CARD_KINDS
    table_jokers = [0] * CARD_KINDS
    for piece in position.table.pieces:
        if isinstance(piece, Joker):
            if piece.declared is not None:
                table_jokers[piece.declared.index] += 1
        else:
            table_real[piece.index] += 1
    hand_real = [0] * CARD_KINDS
    for piece in position.hand:
        if isinstance(piece, Card):
            hand_real[piece.index] += 1
    hand_jokers = position.hand.joker_count
    total_jokers = hand_jokers + sum(table_jokers)

    available = [table_real[i] + hand_real[i] + table_jokers[i] for i in range(CARD_KINDS)]
    templates: list[MeldTemplate] = []
    template_cards: list[tuple[int, ...]] = []
    for template, indices in indexed_catalogue(variant, max_sequence=MAX_SEQUENCE_PIECE):
        if not formable(indices, available, total_jokers):
            continue
        templates.append(template)
        template_cards.append(indices)

    real_cards = [table_real[i] + hand_real[i] for i in range(CARD_KINDS)]
    old_melds = tuple(
        _old_meld(meld, variant, available, total_jokers, real_cards) for meld in position.table
    )
    if any(old.forms for old in old_melds):
        old_melds = _with_nests(old_melds)
    return Instance(
        position=position,
        variant=variant,
        objective=objective,
        keep_jokers=keep_jokers,
        opened=opened,
        table_real=tuple(table_real),
        hand_real=tuple(hand_real),
        hand_jokers=hand_jokers,
        table_jokers=tuple(table_jokers),
        templates=tuple(templates),
        template_cards=tuple(template_cards),
        old_melds=old_melds,
    )


def _old_meld(
    meld: Meld, variant: Variant, available: list[int], total_jokers: int, real_cards: list[int]
) -> OldMeld:
    shape = meld.kind(variant)
    real, jokers, chains = _meld_outline(meld, shape, variant.max_position)
    if jokers:
        freeable = any(real_cards[c] for c, _ in jokers)
        forms = _keep_forms(meld, shape, variant.max_position, freeable)
        reach = tuple(_within_reach(form, real_cards, total_jokers) for form in forms)
        return OldMeld(meld, real, jokers, (), reach)

    def reachable(chain: tuple[int, ...]) -> tuple[int, ...]:
        # Cut a chain at the first card that neither exists nor could be a joker.
        if total_jokers:
            return chain
        for at, index in enumerate(chain):
            if available[index] == 0:
                return chain[:at]
        return chain

    trimmed = tuple(c for c in (reachable(chain) for chain in chains) if c)
    return OldMeld(meld, real, jokers, trimmed)


def _within_reach(form: KeepForm, real_cards: list[int], total_jokers: int) -> KeepForm:
    """``form`` with each chain cut before the slot past which more of its slots have no
    real copy on the table or in the hand than there are jokers: only a joker can fill
    such a slot, and a chain's slots are used nearest first."""
    cut: list[tuple[int, ...]] = []
    for chain in form.chains:
        holes = 0
        for length, c in enumerate(chain):
            holes += not real_cards[c]
            if holes > total_jokers:
                chain = chain[:length]
                break
        cut.append(chain)
    if all(len(new) == len(old) for new, old in zip(cut, form.chains, strict=True)):
        return form
    # Renumber the slots right beyond the old meld's ends; drop emptied chains.
    starts = [len(form.inside) + sum(map(len, form.chains[:k])) for k in range(len(form.chains))]
    kept = [k for k, chain in enumerate(cut) if chain]
    new_starts = {k: len(form.inside) + sum(len(cut[j]) for j in kept if j < k) for k in kept}
    adjacent = []
    for slot in form.adjacent:
        k = max(j for j, start in enumerate(starts) if start <= slot)
        if k in new_starts and slot - starts[k] < len(cut[k]):
            adjacent.append(new_starts[k] + slot - starts[k])
    positions = tuple(form.positions[k][: len(cut[k])] for k in kept) if form.positions else ()
    return replace(form, chains=tuple(cut[k] for k in kept), adjacent=tuple(adjacent), positions=positions)


def _with_nests(old_melds: tuple[OldMeld, ...]) -> tuple[OldMeld, ...]:
    """Fill in every sequence keep form's nests (``Nest``): the other old sequences of its
    suit whose real cards all lie on one of its chains."""
    reals = [_real_positions(old.meld) for old in old_melds]
    found: list[OldMeld] = []
    for i, old in enumerate(old_melds):
        nests: list[tuple[Nest, ...]] = []
        for form in old.forms:
            here: list[Nest] = []
            if form.pinnable is not None:
                nests.append(())
                continue
            for j, (suit, at) in enumerate(reals):
                if j == i or suit != form.suit or suit < 0:
                    continue
                for chain, positions in enumerate(form.positions):
                    if set(at) <= set(positions):
                        here.append(Nest(j, chain, tuple(sorted(positions.index(p) for p in at))))
                        break
            nests.append(tuple(here))
        found.append(replace(old, nests=tuple(nests)) if any(nests) else old)
    return tuple(found)


def _real_positions(meld: Meld) -> tuple[int, tuple[int, ...]]:
    """A sequence's suit and its real cards' positions ((-1, ()) for a group)."""
    cards = meld.cards
    if len({card.rank for card in cards}) == 1:
        return -1, ()
    low = _first_position(meld)
    at = tuple(low + k for k, piece in enumerate(meld.pieces) if isinstance(piece, Card))
    return int(cards[0].suit), at


@lru_cache(maxsize=4096)
def _meld_outline(
    meld: Meld, shape: str | None, max_position: int
) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...], tuple[tuple[int, ...], ...]]:
    """A table meld's real cards and jokers as (index, count), and its extension chains
    before trimming (cached: the same melds lie on the table turn after turn)."""
    real = Counter(card.index for card in meld.real_cards)
    jokers = Counter(j.declared.index for j in meld.jokers if j.declared is not None)
    chains: list[tuple[int, ...]] = []
    cards = meld.cards
    if shape == "group" and len(cards) == 3:
        suits = {card.suit for card in cards}
        missing = [Card(cards[0].rank, suit).index for suit in Suit if suit not in suits]
        chains.append(tuple(missing))
    elif shape == "sequence":
        suit = cards[0].suit
        low = _first_position(meld)
        high = low + len(cards) - 1
        down = tuple(
            position_card(p, suit).index for p in range(low - 1, max(0, low - 1 - EXTENSION_REACH), -1)
        )
        top = min(max_position, high + EXTENSION_REACH)
        up = tuple(position_card(p, suit).index for p in range(high + 1, top + 1))
        chains.extend(chain for chain in (down, up) if chain)
    return tuple(sorted(real.items())), tuple(sorted(jokers.items())), tuple(chains)


def _first_position(meld: Meld) -> int:
    """Sequence position of a legal sequence's first card (an ace first is low)."""
    first = meld.cards[0]
    return 1 if first.rank == 1 else int(first.rank)


@lru_cache(maxsize=4096)
def _keep_forms(meld: Meld, shape: str | None, top: int, freeable: bool) -> tuple[KeepForm, ...]:
    """The melds that can hold ``meld`` (a legal meld with table jokers) whole, its own
    shape first.

    Real cards of one suit and different ranks fit only a sequence, real cards of one
    rank and different suits only a group; a single real card (beside two jokers) fits
    either, a real ace at either end of a sequence where ace-high is allowed (``top``
    14).  Without ``freeable`` jokers, only its own shape, with its jokers on slots of
    their cards (``KeepForm.pinnable``).  Cached: the same melds lie on the table turn
    after turn."""
    reals = meld.real_cards
    single = reals[0] if len(reals) == 1 and freeable else None
    pinnable = None
    if not freeable:
        pinnable = frozenset(joker.declared.index for joker in meld.jokers if joker.declared is not None)
    if shape == "sequence":
        low = _first_position(meld)
        at = [low + k for k, piece in enumerate(meld.pieces) if isinstance(piece, Card)]
        forms = [_sequence_form(at, reals[0].suit, top, (low, low + len(meld.pieces) - 1), pinnable)]
        if single is not None:
            others = [p for p in _places(single, top) if p != at[0]]
            forms.extend(_sequence_form([p], single.suit, top) for p in others)
            forms.append(_group_form(single))
        return tuple(forms)
    # A group: its own suits tell which slot lies right beyond it (a three-card group's
    # missing suit).
    suits = {card.suit for card in meld.cards}
    forms = [_group_form(reals[0], suits, {card.suit for card in reals}, pinnable)]
    if single is not None:
        forms.extend(_sequence_form([p], single.suit, top) for p in _places(single, top))
    return tuple(forms)


def _places(card: Card, top: int) -> tuple[int, ...]:
    """The sequence positions ``card`` can take: its rank, or for an ace either end."""
    if card.rank == Rank.ACE:
        return (1, ACE_HIGH_POSITION) if top == ACE_HIGH_POSITION else (1,)
    return (int(card.rank),)


def _sequence_form(
    at: list[int],
    suit: Suit,
    top: int,
    span: tuple[int, int] | None = None,
    pinnable: frozenset[int] | None = None,
) -> KeepForm:
    """A sequence through real cards at positions ``at``: the gaps between them inside,
    a chain down to position 1 and one up to ``top`` (with ``pinnable`` cards, each cut
    two slots beyond its last slot of one of them).  ``span``: the old meld's first and
    last positions, when this is its own form (for ``adjacent``)."""
    low, high = min(at), max(at)
    inside = tuple(position_card(p, suit).index for p in range(low + 1, high) if p not in at)
    down = tuple(range(low - 1, 0, -1))
    up = tuple(range(high + 1, top + 1))
    if pinnable is not None:
        down, up = (_cut(chain, suit, pinnable) for chain in (down, up))
    chains: list[tuple[int, ...]] = []
    adjacent: list[int] = []
    # How far the old meld's ends lie beyond the real cards (its end jokers), per chain.
    beyond = (None, None) if span is None else (low - span[0], span[1] - high)
    for chain, steps in zip((down, up), beyond, strict=True):
        if not chain:
            continue
        if steps is not None and steps < len(chain):
            adjacent.append(len(inside) + sum(map(len, chains)) + steps)
        chains.append(chain)
    cards = tuple(tuple(position_card(p, suit).index for p in chain) for chain in chains)
    return KeepForm(inside, cards, tuple(adjacent), int(suit), tuple(chains), pinnable)


def _cut(chain: tuple[int, ...], suit: Suit, pinnable: frozenset[int]) -> tuple[int, ...]:
    """A chain of positions cut two slots beyond its last slot of a ``pinnable`` card:
    supply slots beyond the outermost joker number two at most."""
    last = max((k for k, p in enumerate(chain) if position_card(p, suit).index in pinnable), default=-1)
    return chain[: last + 1 + EXTENSION_REACH]


def _group_form(
    card: Card,
    old_suits: set[Suit] | None = None,
    real_suits: set[Suit] | None = None,
    pinnable: frozenset[int] | None = None,
) -> KeepForm:
    """A group of ``card``'s rank: one slot per suit its real cards (``real_suits``, else
    ``card``'s alone) lack.  ``old_suits``: the old meld's suits, when this is its own
    form (a three-card group's missing suit is ``adjacent``)."""
    held = real_suits if real_suits is not None else {card.suit}
    chains = tuple((Card(card.rank, suit).index,) for suit in Suit if suit not in held)
    adjacent: tuple[int, ...] = ()
    if old_suits is not None and len(old_suits) == 3:
        adjacent = tuple(k for k, (index,) in enumerate(chains) if ALL_CARDS[index].suit not in old_suits)
    return KeepForm((), chains, adjacent, pinnable=pinnable)
