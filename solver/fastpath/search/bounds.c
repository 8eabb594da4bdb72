/*
 * The search's cheap lower bound on the cost of the rest of a state, and the tests it
 * and the pivot's choice share: whether a loose card still fits some meld, and whether
 * it fits one without breaking a block.  (The prices' bound is lp_bound.c's.)
 */

#include "search.h"

/* Whether loose card ``card`` still fits some meld: a group or a 3-card run around it,
   its other slots held by cards in ``present`` (a bit per card) or by jokers. */
int placeable(const Problem *p, int card, uint64_t present, int jokers) {
    int rank = card / 4 + 1, suit = card % 4;
    uint64_t same_rank = ((present >> ((rank - 1) * 4)) & 15) & ~(1u << suit);
    if (suits_in((int)same_rank) + jokers >= 2) return 1;
    for (int i = 0; i < p->nwindows[card]; i++) {
        uint64_t absent = p->windows[card][i] & ~present;
        int missing = (absent != 0) + ((absent & (absent - 1)) != 0);
        if (missing <= jokers) return 1;
    }
    return 0;
}

/* Whether ``card`` may take the place of a table joker standing for it in an intact
   block, the joker moving inside the block's meld (a redeclared keep: moves.c). */
static int takes_a_jokers_place(const Problem *p, const State *s, int card) {
    for (int i = 0; i < p->njokers; i++)
        if (p->joker_cards[i] == card && (s->mask >> p->joker_blocks[i]) & 1 &&
            jokers_freed(p, s, card) < p->free[card])
            return 1;
    return 0;
}

/* Whether ``card`` could join the run of an intact run block of its suit whose table
   jokers move inside its meld (a redeclared keep, moves.c): the places between the
   block and the card filled by loose cards, intact blocks' cards and jokers, the suit's
   movable ones counted as jokers.  Generous (where the jokers go is not checked), which
   keeps the bound a bound. */
static int placeable_by_moved_jokers(const Problem *p, const State *s, int card, uint64_t loose, int jokers) {
    int rank = card / 4 + 1, suit = card % 4, movable = 0;
    for (int i = 0; i < p->njokers; i++) {
        const Block *block = &p->blocks[p->joker_blocks[i]];
        if (block->is_run && block->suit == suit && (s->mask >> p->joker_blocks[i]) & 1 &&
            jokers_freed(p, s, p->joker_cards[i]) < p->free[p->joker_cards[i]])
            movable++;
    }
    if (!movable) return 0;
    uint64_t present = loose;
    for (uint64_t m = s->mask; m; m &= m - 1) present |= p->blocks[__builtin_ctzll(m)].cards_mask;
    for (int i = 0; i < p->njokers; i++) {
        const Block *block = &p->blocks[p->joker_blocks[i]];
        if (!block->is_run || block->suit != suit || !((s->mask >> p->joker_blocks[i]) & 1)) continue;
        for (int at = rank; at <= (rank == 1 ? p->max_position : rank); at += 13) {
            if (at >= block->first && at <= block->last) return 1;
            int from = at < block->first ? at + 1 : block->last + 1, to = at < block->first ? block->first - 1 : at - 1;
            int missing = 0;
            for (int place = from; place <= to; place++) missing += !((present >> card_at(place, suit)) & 1);
            if (missing <= jokers + movable) return 1;
        }
    }
    return 0;
}

/*
 * Whether loose card ``card`` fits a meld without breaking a block: with loose cards
 * (``loose``, a bit per card) and jokers only, or growing an intact block (a run block
 * next to it or one slot away, that slot a loose card or a joker; a group block of
 * three that lacks its suit), or taking a table joker's place in one, or in a run that
 * keeps a block whose jokers move (generous in those two: the jokers' new and old
 * places are not checked, which keeps the bound a bound).  Longer gaps are covered by
 * the loose-only runs.  The last test only ``for_bound``: the pivot's choice
 * (``critical_card``) leaves it out, since a card that needs a block's moving jokers
 * is best settled first like one that needs a break, and its runs find that block's
 * redeclared keeps (a card taking a joker's place is never chosen: its runs could not
 * hold the block around it).
 */
int placeable_freely(const Problem *p, const State *s, int card, uint64_t loose, int jokers, int for_bound) {
    if (placeable(p, card, loose, jokers) || takes_a_jokers_place(p, s, card)) return 1;
    int rank = card / 4 + 1, suit = card % 4;
    for (int i = 0; i < p->ngroups_at[rank]; i++) {
        int b = p->groups_at[rank][i];
        const Block *block = &p->blocks[b];
        if ((s->mask >> b) & 1 && block->ncards == 3 && !((block->suits >> suit) & 1)) return 1;
    }
    for (int i = 0; i < p->nruns_of[suit]; i++) {
        int b = p->runs_of[suit][i];
        if (!((s->mask >> b) & 1)) continue;
        const Block *block = &p->blocks[b];
        for (int at = rank; at <= (rank == 1 ? p->max_position : rank); at += 13) {
            int gap = block->last < at ? at - block->last - 1 : block->first - at - 1;
            if (gap == 0) return 1;
            if (gap == 1 && (jokers > 0 || (loose >> card_at(block->last < at ? at - 1 : at + 1, suit)) & 1))
                return 1;
        }
    }
    return for_bound && placeable_by_moved_jokers(p, s, card, loose, jokers);
}

/* Table jokers in intact blocks that their card's freeing capacity could still free. */
int freeable_in_blocks(const Problem *p, const State *s) {
    int n = 0;
    for (int i = 0; i < p->njokers; i++)
        if ((s->mask >> p->joker_blocks[i]) & 1 && p->free[p->joker_cards[i]] > 0) n++;
    return n;
}

/* The opening: whether the pieces left to play can still be worth the value needed. */
static int opening_reachable(const Problem *p, const State *s) {
    int most = (jokers_of(s) + wild_of(s)) * p->max_value;
    for (int k = 0; k < NKINDS && most < need_of(s); k++) most += (mand_of(s, k) + opt_of(s, k)) * p->value[k];
    return most >= need_of(s);
}

/*
 * A lower bound on the cost of the rest: an optional card that no meld can take any
 * more stays in the hand, and a mandatory one makes the state infeasible.  When that
 * bound falls just short of ``limit``: a card that fits only by breaking a block costs
 * at least one more broken meld (or, optional, its cost in the hand, which is more).
 * (That second check is dearer, and only matters there.)  With the prices in use, the
 * larger of this and theirs (``local``: prices re-solved above the state).
 */
int64_t lower_bound(Search *S, const State *s, int64_t limit, const Prices *local) {
    const Problem *p = &S->problem;
    if (!played_of(s) && !jokers_of(s)) {
        /* Nothing from the hand played yet and no hand card left to play: no play. */
        uint64_t optional = ((s->w[0] | s->w[1] | s->w[2]) & 0xccccccccccccccccULL) | (s->w[3] & 0xcccc);
        if (!optional) return INF;
    }
    uint64_t loose = loose_cards(s), present = loose;
    for (uint64_t m = s->mask; m; m &= m - 1) present |= p->blocks[__builtin_ctzll(m)].cards_mask;
    /* Wildcards in hand now, and those that breaking a block could still free. */
    int jokers = jokers_of(s) + wild_of(s);
    int all_jokers = jokers + freeable_in_blocks(p, s);
    int64_t bound = 0;
    uint64_t placed = 0;
    for (uint64_t m = loose; m; m &= m - 1) {
        int k = __builtin_ctzll(m);
        if (placeable(p, k, present, all_jokers)) {
            placed |= (uint64_t)1 << k;
        } else {
            if (mand_of(s, k)) return INF;
            bound += (int64_t)opt_of(s, k) * p->card_cost[k] * p->weight;
        }
    }
    if (need_of(s) > 0 && !opening_reachable(p, s)) return INF;
    /* The prices' bound (see lp_bound.c), where it is known; the "one more break"
       below is added to the cheap bound alone (the prices' bound may count that card
       in the hand already). */
    int64_t priced = S->lp && S->lp->use_duals && bound < limit ? lp_bound(S->lp, p, s, local) : 0;
    if (priced >= limit) return priced > bound ? priced : bound;
    if (bound + 1 == limit) {
        for (uint64_t m = placed; m; m &= m - 1)
            if (!placeable_freely(p, s, __builtin_ctzll(m), loose, jokers, 1)) {
                bound++;
                break;
            }
    }
    return priced > bound ? priced : bound;
}
