/*
 * Solving a state: the memo, the bounds, the independent parts, the re-solved prices
 * and the points floor around each expansion (moves.c).
 */

#include <string.h>

#include "search.h"

/*
 * Independent parts.  Where no joker can move between cards any more (no hand joker or
 * mandatory wildcard left, no intact block holding a table joker that could still be
 * freed), something from the hand is played already and no opening value is needed,
 * two pending items can only end in one meld when a chain of pending items joins
 * them: places next to each other in one suit (a run has no gap without a joker),
 * cards of one rank (a group), the cards of one intact block (kept together, or broken
 * into cards that go on from there) and an ace's two places.  The pending items then
 * fall into parts that no meld spans, and the least cost of the state is the sum of
 * the parts' least costs, each a state of its own in the memo: the search would
 * otherwise visit every combination of the parts' states, where the parts visit each
 * of theirs once.
 *
 * Places: a card at position p (1..14, an ace at 1 and, with ace-high, at 14) of suit s
 * is bit s * 16 + p of a 64-bit mask.
 */#define MAX_PARTS 8
#define PLACE_LANES 0x7ffe7ffe7ffe7ffeULL /* positions 1..14 of each suit */
#define PLACE_ONES 0x0002000200020002ULL  /* position 1 of each suit */
#define PLACE_TOPS 0x4000400040004000ULL  /* position 14 of each suit */

/* The places one step from ``part``: next in its suit, of its rank in every suit, an
   ace's other place. */
static inline uint64_t next_places(uint64_t part) {
    uint64_t ranks = (part | part >> 16 | part >> 32 | part >> 48) & 0xffff;
    uint64_t near = (part << 1) | (part >> 1) | ranks * 0x0001000100010001ULL;
    near |= ((part & PLACE_ONES) << 13) | ((part & PLACE_TOPS) >> 13);
    return near & PLACE_LANES;
}

/* The part of ``present`` (places) that holds the lowest place of ``left``. */
static uint64_t part_from(const Problem *p, const State *s, uint64_t left, uint64_t present) {
    uint64_t part = left & -left;
    for (;;) {
        uint64_t grown = part | (next_places(part) & present);
        for (uint64_t m = s->mask; m; m &= m - 1) {
            const Block *block = &p->blocks[__builtin_ctzll(m)];
            if (block->nodes & grown) grown |= block->nodes;
        }
        if (grown == part) return part;
        part = grown;
    }
}

/* The state's items in the part ``places``, as a state of its own. */
static void part_state(const Problem *p, const State *s, uint64_t loose, uint64_t places, State *part) {
    memset(part, 0, sizeof(*part));
    part->w[3] = s->w[3] & ~(uint64_t)0xffff; /* the flags and the freed jokers */
    for (uint64_t m = loose; m; m &= m - 1) {
        int k = __builtin_ctzll(m);
        if (places_of(p, k) & places) part->w[k >> 4] |= s->w[k >> 4] & ((uint64_t)15 << ((k & 15) * 4));
    }
    for (uint64_t m = s->mask; m; m &= m - 1) {
        int b = __builtin_ctzll(m);
        if (p->blocks[b].nodes & places) part->mask |= (uint64_t)1 << b;
    }
}

/* The state's independent parts as states of their own, into ``parts``; returns how
   many (1 when it does not split, or may not be split). */
static int split_parts(Search *S, const State *s, State *parts) {
    const Problem *p = &S->problem;
    if (!played_of(s) || need_of(s) || !jokers_settled(p, s)) return 1;
    uint64_t loose = loose_cards(s), present = 0;
    for (uint64_t m = loose; m; m &= m - 1) present |= places_of(p, __builtin_ctzll(m));
    for (uint64_t m = s->mask; m; m &= m - 1) present |= p->blocks[__builtin_ctzll(m)].nodes;
    uint64_t left = present;
    int n = 0;
    uint64_t found[MAX_PARTS + 1];
    while (left) {
        uint64_t part = part_from(p, s, left, present);
        if (n == MAX_PARTS) return 1;
        found[n++] = part;
        left &= ~part;
    }
    if (n < 2) return 1;
    S->splits++;
    for (int i = 0; i < n; i++) part_state(p, s, loose, found[i], &parts[i]);
    return n;
}

/*
 * The least cost of independent parts together below ``limit``, or a lower bound of at
 * least ``limit``: each part is solved under what the others' best known bounds leave
 * of the limit, and their sum is exact only when every part's cost is.
 */
static int64_t solve_parts(Search *S, const State *parts, int n, int64_t limit, const Prices *local) {
    int64_t bounds[MAX_PARTS], total = 0;
    for (int i = 0; i < n; i++) {
        Entry *entry = memo_find(S, &parts[i]);
        bounds[i] = entry->used ? entry->value : lower_bound(S, &parts[i], -1, local);
        total = total + bounds[i] >= INF ? INF : total + bounds[i];
    }
    for (int i = 0; i < n && total < limit; i++) {
        /* (a floor of the whole says nothing of a part) */
        int64_t value = solve(S, &parts[i], limit - (total - bounds[i]), 0, local);
        if (S->aborted) return INF;
        if (value > bounds[i]) {
            total = total - bounds[i] + value >= INF ? INF : total - bounds[i] + value;
            bounds[i] = value;
        }
    }
    return total;
}

/*
 * Re-solved prices.  The prices of the root's programs bound every state, but more
 * loosely the further a state is from the root.  A state the search comes back to in
 * a later round, whose last expansion took RESOLVE_WORK expansions or more, is where a
 * tighter bound pays: its program is solved again for it (``lp_resolve``, warm), and
 * those prices bound it and every state below it while it is expanded (its frame's
 * ``local``); a program without a solution there ends the state at once (no
 * completion).  The prices are kept in a pool for the state's later rounds.  Each
 * re-solve is charged to the budget as the expansions it costs in time (measured
 * 2026-11-26 on the mid-game suites: about 40 expansions for the program without
 * wildcards, 80 for the first).  Without re-solves the search answered 539 of the 600
 * mid-game positions within 5,000 expansions; with them 567 (and 590 within 10,000).
 */
#define RESOLVE_COST_SETTLED 40
#define RESOLVE_COST_WILDCARDS 80

/*
 * The points floor.  The points program (_points.c, through its capsule) gives the
 * fewest points the state's cards can leave in the hand, blind to the melds broken:
 * exact in the points, so W times it bounds the state's cost.  It is asked where the
 * prices are re-solved (a state the search comes back to), in positions without any
 * joker (with a joker, the states whose jokers are settled would be the only ones it
 * could answer, and on the mid-game suites it cost more than it saved), and its answer
 * bounds every state below too: a step that leaves p points in the hand leaves a child
 * whose fewest points are at least the state's less p (``leaf``), since the state's
 * fewest are at most p plus the child's.  That settles the positions whose hard part is
 * proving that no play leaves fewer points, where every way of breaking the old melds
 * is a state the relaxation cannot rule out: the floor cuts them all at once.  Each
 * question is charged as the expansions it costs in time (about 0.15 ms, measured on
 * the speed suites 2026-11-26).
 */
#define POINTS_COST 60
#define POINTS_BUDGET 20000 /* states one question may make in the program */

/* One question to the points program about the cards ``table`` and ``hand``. */
static int64_t ask_points(Search *S, const int *table, const int *hand, const int *points, int64_t limit) {
    S->points_asked++;
    S->expansions += POINTS_COST;
    const PointsApi *api = S->points_api;
    return api->fewest(api, S->problem.max_position == 14, table, hand, points, limit, POINTS_BUDGET);
}

/* Asks the points program about state ``s`` (its cards: table copies must be laid, hand
   copies may be); returns the fewest points, a floor of them (``*exact`` 0: ask again
   later), or INF when the cards cannot be laid out at all. */
static int64_t points_floor(Search *S, const State *s, int64_t limit, int32_t *exact) {
    const Problem *p = &S->problem;
    int table[NKINDS], hand[NKINDS], points[NKINDS];
    int64_t most = 1; /* more than the whole hand: the answer is exact */
    for (int k = 0; k < NKINDS; k++) {
        table[k] = mand_of(s, k);
        hand[k] = opt_of(s, k);
        points[k] = (int)p->card_cost[k];
        most += (int64_t)hand[k] * points[k];
    }
    for (uint64_t m = s->mask; m; m &= m - 1) {
        const Block *block = &p->blocks[__builtin_ctzll(m)];
        for (int i = 0; i < block->ncards; i++) table[block->cards[i]]++;
    }
    *exact = 1;
    for (int k = 0; k < NKINDS; k++)
        if (table[k] + hand[k] > 3 || points[k] <= 0) return 0; /* not the program's */
    int64_t needed = (limit + p->weight - 1) / p->weight; /* points that reach the limit */
    if (needed > most) needed = most;
    int64_t found = ask_points(S, table, hand, points, needed);
    if (found >= 0) return found;
    *exact = 0;
    if (found != -1) return 0; /* past its budget */
    /* None below the limit: the state is cut; the exact answer tells the later rounds
       more, and whether the cards can be laid out at all. */
    found = ask_points(S, table, hand, points, most);
    if (found == -2) return needed;
    *exact = 1;
    return found >= 0 ? found : INF;
}

/* The pool's slot for new prices: the next, or the spare one when it is full. */
static Prices *pool_slot(LpBound *lp) { return lp->npool < PRICES_POOL ? &lp->pool[lp->npool] : &lp->pool_spare; }

/* The state's own prices: re-solved for it now, or from its earlier round, or NULL;
   ``value`` rises to their bound (INF when the program has no solution there). */
static const Prices *own_prices(Search *S, const State *s, const Entry *entry, int known, int64_t limit,
                                int64_t *value, int32_t *pooled, int64_t *floor, int32_t *asked) {
    const Problem *p = &S->problem;
    LpBound *lp = S->lp;
    if (!lp) return NULL;
    if (known && entry->prices >= 0) return &lp->pool[entry->prices];
    if (S->resolve_work < 0 || !lp->use_duals || !known || entry->work < (uint32_t)S->resolve_work || *value >= limit)
        return NULL;
    if (S->points_asking && !*asked) {
        int64_t points = points_floor(S, s, limit, asked);
        if (points >= INF) {
            *value = INF;
            return NULL;
        }
        if (points > *floor) *floor = points;
        if (points * p->weight > *value) *value = points * p->weight;
        if (*value >= limit) return NULL;
    }
    Prices *slot = pool_slot(lp);
    S->resolves++;
    /* A program without joker columns (settled, or a position without jokers) is the
       smaller one. */
    Program *program = resolve_program(lp, p, s);
    int small = p->total_jokers == 0 || program == &lp->programs[1];
    S->expansions += small ? RESOLVE_COST_SETTLED : RESOLVE_COST_WILDCARDS;
    int found = lp_resolve(lp, p, program, s, slot);
    if (found < 0) {
        *value = INF;
        return NULL;
    }
    if (found == 0) return NULL;
    int64_t bound = lp_bound_by(p, s, slot);
    if (bound > *value) *value = bound;
    if (slot != &lp->pool_spare) *pooled = lp->npool++;
    return slot;
}

/* Expands ``s`` (or its parts) below ``limit``: its least cost, or a lower bound at
   least ``limit``; ``*work`` the expansions it took.  INF once the search aborts. */
static int64_t expand_state(Search *S, const State *s, int64_t limit, int64_t floor, const Prices *local,
                            uint32_t *work) {
    size_t start = S->expansions;
    if (++S->expansions > S->budget) {
        S->aborted = 1;
        return INF;
    }
    State parts[MAX_PARTS];
    int nparts = split_parts(S, s, parts);
    int64_t found;
    if (nparts > 1) {
        found = solve_parts(S, parts, nparts, limit, local);
    } else {
        Frame frame = {limit, INF, -1, floor, local, NULL};
        found = expand(S, s, &frame);
    }
    if (S->aborted) return INF;
    size_t spent = S->expansions - start;
    *work = spent > UINT32_MAX ? UINT32_MAX : (uint32_t)spent;
    return found;
}

/* Stores what is known of state ``s``; 0, or -1 when the memo cannot grow. */
static int remember(Search *S, const State *s, int known, int64_t value, int64_t limit, uint32_t work,
                    int32_t pooled, int32_t asked, int64_t floor) {
    if (!known && (S->count + 1) * 2 > S->capacity && memo_grow(S) != 0) return -1;
    /* The expansion may have grown the table: look the slot up again. */
    Entry *entry = memo_find(S, s);
    entry->key = *s;
    entry->value = value;
    entry->exact = value < limit || value >= INF;
    entry->work = work;
    entry->prices = pooled;
    entry->asked = asked;
    entry->floor = floor;
    if (!known) S->count++;
    entry->used = 1;
    return 0;
}

/*
 * The least cost of the rest of state ``s`` below ``limit``, or a lower bound of at
 * least ``limit``; ``floor`` the fewest points it must leave as far as known (0:
 * unknown), ``local`` the prices re-solved above it.  Memoized: an entry holds the
 * exact cost, or a lower bound when an earlier search below a smaller limit was cut (a
 * branch and bound whose bounds are remembered).
 */
int64_t solve(Search *S, const State *s, int64_t limit, int64_t floor, const Prices *local) {
    if (S->aborted) return INF;
    S->visits++;
    const Entry *entry = memo_find(S, s);
    if (entry->used && (entry->exact || entry->value >= limit)) return entry->value;
    int known = entry->used;
    int64_t value = lower_bound(S, s, limit, local);
    if (known && entry->floor > floor) floor = entry->floor;
    if (floor * S->problem.weight > value) value = floor * S->problem.weight;
    int32_t pooled = known ? entry->prices : -1, asked = known ? entry->asked : 0;
    uint32_t work = known ? entry->work : 0;
    const Prices *own =
        value < limit ? own_prices(S, s, entry, known, limit, &value, &pooled, &floor, &asked) : NULL;
    if (value < limit) {
        int64_t found = expand_state(S, s, limit, floor, own ? own : local, &work);
        if (S->aborted) return INF;
        if (found > value) value = found;
    }
    if (remember(S, s, known, value, limit, work, pooled, asked, floor) != 0) {
        S->aborted = 1;
        return INF;
    }
    return value;
}
