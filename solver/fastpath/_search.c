/*
 * The hint engine's fast path: an exact, memoized partition search in C.
 *
 * It answers the same question as the CP-SAT model: which legal final table, made of
 * every table piece and some hand pieces, leaves the fewest points (or cards) in the
 * hand, and among those breaks the fewest old melds.  The Python side (solver/fastpath/__init__.py) decides which positions
 * come here, turns the answer into a Hint, and falls back to CP-SAT when the search
 * outgrows its budget.
 *
 * Items.  Every old meld starts as a *block*: a whole meld that is still intact.  A
 * block is *kept* when one final meld holds all its cards (as it is, extended, or
 * joined with others), and *broken* otherwise; breaking costs 1 in the tie-break.  A
 * broken block's cards become *mandatory* loose cards (they must go into some meld);
 * hand cards are *optional* loose cards (they may stay in the hand at their cost).
 * Hand jokers are optional wildcards.
 *
 * Table jokers.  A block records which of its cards are table jokers.  Kept, a joker
 * keeps its declaration (it is a card of its kind in the block).  Broken, it is freed
 * (a *mandatory wildcard*: it must go into some meld, declared as anything) while fewer
 * jokers of its card are freed than the card's freeing capacity, else it stays locked: a
 * mandatory card of its declared kind, like a real copy.  The state marks which jokers
 * were freed: a kept block's joker, and a locked one, keep their declaration and use
 * none of the capacity.  Freeing whenever allowed never loses, since a wildcard may keep
 * its old declaration, except where two jokers of one card compete for a capacity of
 * one: a joker that goes on standing for its card should then stay locked and leave
 * the freeing to the other, so a break tries both there.  The capacity (RULES.md's
 * counting rule: real copies of the card on the final table) is fixed by the caller,
 * one search per configuration of the hand cards that decide it; the caller learns
 * which jokers the play freed from ``last_freed()``.
 * A slot takes a mandatory wildcard before a hand joker (they are alike, and the first
 * must be used), or may break an intact block to free its joker for the slot.  The
 * same mechanism carries hand jokers that must be played (``keep_jokers`` going out).
 *
 * The opening.  With ``need`` > 0 (Rummikub's first meld; the caller passes no blocks,
 * since the table stays as it is) the state also holds the value still needed: each
 * meld laid subtracts the values of its cards (a joker the card it stands for), the end
 * is a play only at 0, and the bound cuts a state whose pieces left cannot reach it.
 *
 * Search.  Cards are indexed rank-major ((rank - 1) * 4 + suit) and a block's key is
 * its lowest card index.  A state takes a pivot and tries everything that can happen
 * to it:
 *  - a block is kept in a final meld that contains it whole, or broken;
 *  - an optional card goes into a meld, or stays in the hand;
 *  - a mandatory card goes into a meld.
 * The pivot is the lowest pending item, a loose card or an intact block (a block first
 * on a tie), unless some loose card fits a meld only by breaking a block: then that
 * card (the one with the fewest partners) goes first, since how it is played decides
 * which blocks break, and a card that cannot be placed is found out at once.  Each meld
 * tried holds the pivot; its other slots take a loose card, a hand joker, a whole
 * intact block (absorbed: kept), or a card of an intact block that is broken for it.
 * Every card below the lowest pending item is placed already, so a slot for such a
 * card can only hold a joker.
 *
 * Choices that cannot do better than another choice are left out:
 *  - when a mandatory loose copy of a slot's card is at hand, the slot takes it (not a
 *    hand copy, a joker or a block's copy), and a mandatory copy of the lowest card is
 *    placed before an optional one (exchange two copies of one card);
 *  - a run with a segment (a slot, an absorbed block, the held part) starting 3 or more
 *    places after its first card, and 3 or more cards from there to its end, splits
 *    into two legal runs there: it is found as those two runs;
 *  - a block broken when it is the lowest item gives its lowest card a meld at once,
 *    and that meld may not hold all of the block's cards (keeping it does better).
 *
 * Cost and bounds.  A state's cost is primary * W + broken, with W larger than the
 * number of blocks: lexicographic, primary first (points or cards left in the hand),
 * then melds broken.  solve(state, limit) returns the exact cost when it is below
 * ``limit``, else a lower bound of at least ``limit``, and the memo keeps either
 * (keyed on the whole state: loose counts, intact blocks, jokers left, whether a hand
 * piece was played).  A cheap lower bound cuts states before they are expanded: a card
 * no meld can take any more (with the cards still loose or in intact blocks, and the
 * jokers) stays in the hand or, mandatory, makes the state infeasible; a card that fits
 * only by breaking a block costs one more break, and with nothing played and nothing
 * left to play there is no play.  A search that runs past ``lp_after`` expansions also
 * takes the prices of the position's linear relaxation (_lp_bound.h, solved once by
 * HiGHS) and bounds every state with them from then on: that bound sees every card and
 * old meld at once, where the cheap one sees a card at a time.  The root is solved with a limit that starts at 1 and
 * at least doubles (with the prices: rises to it), up to the least cost a failed round
 * could not rule out; each round
 * cuts every branch at its limit and reuses the bounds of the rounds before.  The
 * winning path is then walked again to read off the melds.  A budget on expansions
 * stops the search (the caller then asks CP-SAT).
 *
 * Independent parts.  Once every joker is settled (none in the hand or freed and
 * unplaced, none in an intact block that could still free it), a hand piece is played
 * and no opening value is needed, pending items that no chain of pending items joins
 * (next places in a suit, one rank, one block) can never share a meld: such a state is
 * solved as the sum of its parts, each memoized as a state of its own (see
 * ``split_parts``), instead of every combination of the parts' states.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_points_api.h"
#include "_read_counts.h"

#define NKINDS 52
#define MAXBLOCKS 63
#define INF ((int64_t)1 << 60)
#define JOKER_FLAG 64 /* added to a card index in the output: a joker declared as that card */
#define MAX_COST 1000000 /* the dearest card or joker a caller may give (points or 1 per card) */

/* What a search ends in; the module exports them as PLAY, NO_PLAY and OVER_BUDGET. */
typedef enum { SEARCH_PLAY = 0, SEARCH_NO_PLAY = 1, SEARCH_OVER_BUDGET = 2 } SearchStatus;

typedef struct {
    uint64_t w[4]; /* card k: bits (k & 15) * 4 of word k >> 4; low 2 bits mandatory, high 2 optional */
    uint64_t mask; /* intact blocks */
} State;

/* Word 3 holds cards 48-51 in bits 0-15; above them the hand jokers left, the played
   flag, the mandatory wildcards left (freed table jokers, and hand jokers that must go
   out), the opening value still needed, and which table jokers were freed. */
#define JOKER_SHIFT 16
#define PLAYED_BIT ((uint64_t)1 << 18)
#define WILD_SHIFT 19
#define NEED_SHIFT 21
#define MAX_NEED 63
#define FREED_SHIFT 27 /* a bit per entry of the table joker list: that joker was freed */
#define LOCKED_FLAG 128 /* added to a card index in the output: a table joker kept in its old meld */

static inline int mand_of(const State *s, int k) { return (int)((s->w[k >> 4] >> ((k & 15) * 4)) & 3); }
static inline int opt_of(const State *s, int k) { return (int)((s->w[k >> 4] >> ((k & 15) * 4 + 2)) & 3); }
static inline void add_mand(State *s, int k) { s->w[k >> 4] += (uint64_t)1 << ((k & 15) * 4); }
static inline void take_mand(State *s, int k) { s->w[k >> 4] -= (uint64_t)1 << ((k & 15) * 4); }
static inline void take_opt(State *s, int k) {
    s->w[k >> 4] -= (uint64_t)1 << ((k & 15) * 4 + 2);
    s->w[3] |= PLAYED_BIT;
}
static inline int jokers_of(const State *s) { return (int)((s->w[3] >> JOKER_SHIFT) & 3); }
static inline void take_joker(State *s) {
    s->w[3] -= (uint64_t)1 << JOKER_SHIFT;
    s->w[3] |= PLAYED_BIT;
}
static inline int played_of(const State *s) { return (s->w[3] & PLAYED_BIT) != 0; }
static inline int wild_of(const State *s) { return (int)((s->w[3] >> WILD_SHIFT) & 3); }
static inline void add_wild(State *s) { s->w[3] += (uint64_t)1 << WILD_SHIFT; }
static inline void take_wild(State *s) { s->w[3] -= (uint64_t)1 << WILD_SHIFT; }
static inline int need_of(const State *s) { return (int)((s->w[3] >> NEED_SHIFT) & MAX_NEED); }
static inline void set_need(State *s, int need) {
    s->w[3] = (s->w[3] & ~((uint64_t)MAX_NEED << NEED_SHIFT)) | ((uint64_t)need << NEED_SHIFT);
}

typedef struct {
    int is_run;
    int suit, first, last; /* a run: suit, sequence positions first..last (1..14) */
    int rank, suits;       /* a group: rank and a bit mask of suits */
    int ncards;
    int cards[14];
    int key;
    uint64_t cards_mask; /* a bit per card it holds */
    uint64_t joker_mask; /* a bit per card a table joker in it stands for */
    uint64_t joker_places; /* a run's: a bit per position (1..14) a table joker fills */
    uint64_t nodes;        /* its cards as places (see ``place_of``), for the split into parts */
} Block;

/* ---- the problem (one search at a time: the GIL is held throughout) ---- */
static int g_max_position;           /* 14 with ace-high, else 13 */
static int64_t g_weight;             /* W */
static int64_t g_card_cost[NKINDS];  /* cost of leaving one optional card */
static int64_t g_joker_cost;
static int g_nblocks;
static Block g_blocks[MAXBLOCKS];
static int g_holding[NKINDS][4];     /* blocks holding each card */
static int g_nholding[NKINDS];
static int g_runs_at[4][15][MAXBLOCKS]; /* run blocks by suit and first position */
static int g_nruns_at[4][15];
static int g_groups_at[14][8];       /* group blocks by rank */
static int g_ngroups_at[14];
static int g_runs_of[4][MAXBLOCKS];  /* run blocks by suit */
static int g_nruns_of[4];
static uint64_t g_windows[NKINDS][6]; /* the other two cards of each 3-card run through a card */
static int g_nwindows[NKINDS];
static int g_free[NKINDS];           /* table jokers declared as each card that may be freed */
static int g_joker_blocks[8];        /* the blocks holding table jokers (one entry per joker) */
static int g_joker_cards[8];         /* and the card each stands for */
static int g_njokers;
static int g_value[NKINDS];          /* each card's value toward the opening */
static int g_max_value;              /* the dearest card's, what a joker may be worth */

static inline int card_at(int position, int suit) { return ((position == 14 ? 1 : position) - 1) * 4 + suit; }

/* How many suits a 4-bit suit mask holds (a table: without -mpopcnt the builtin is a
   library call, and it was the search's third-hottest function). */
static inline int suits_in(int mask) {
    static const int count[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
    return count[mask & 15];
}

/* The 3-card runs through each card (an ace at either end with ace-high), as masks. */
static void set_windows(void) {
    for (int card = 0; card < NKINDS; card++) {
        int rank = card / 4 + 1, suit = card % 4;
        g_nwindows[card] = 0;
        for (int at = rank; at <= (rank == 1 ? g_max_position : rank); at += 13) {
            for (int first = at - 2; first <= at; first++) {
                if (first < 1 || first + 2 > g_max_position) continue;
                uint64_t others = 0;
                for (int t = first; t <= first + 2; t++)
                    if (t != at) others |= (uint64_t)1 << card_at(t, suit);
                g_windows[card][g_nwindows[card]++] = others;
            }
        }
    }
}

/* ---- memo: open addressing on the whole state ---- */
typedef struct {
    State key;
    int64_t value;
    int used;
    int exact;
    uint32_t work; /* expansions its last expansion took, its own included (0: none yet) */
    int32_t prices; /* its own re-solved prices in the pool (see ``solve``), or -1 */
    int32_t asked;  /* the points program has given what it can about it (``points_floor``) */
    int64_t floor;  /* the fewest points its rest must leave, as far as known (``g_floor``) */
} Entry;

static Entry *g_table;
static size_t g_capacity, g_count, g_budget, g_expansions;
static int g_aborted;
static int g_busy; /* a search (or the walk building its result) is under way */

static inline uint64_t mix(uint64_t h, uint64_t x) {
    h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h * 0xbf58476d1ce4e5b9ULL;
}

static inline size_t slot_of(const State *s) {
    uint64_t h = 0x2545f4914f6cdd1dULL;
    h = mix(h, s->w[0]);
    h = mix(h, s->w[1]);
    h = mix(h, s->w[2]);
    h = mix(h, s->w[3]);
    h = mix(h, s->mask);
    h ^= h >> 31;
    return (size_t)h & (g_capacity - 1);
}

static inline int same(const State *a, const State *b) {
    return a->w[0] == b->w[0] && a->w[1] == b->w[1] && a->w[2] == b->w[2] && a->w[3] == b->w[3] &&
           a->mask == b->mask;
}

static Entry *find(const State *s) {
    size_t i = slot_of(s);
    while (g_table[i].used) {
        if (same(&g_table[i].key, s)) return &g_table[i];
        i = (i + 1) & (g_capacity - 1);
    }
    return &g_table[i];
}

static int grow(void) {
    size_t old_capacity = g_capacity;
    Entry *old = g_table;
    g_capacity *= 2;
    g_table = (Entry *)calloc(g_capacity, sizeof(Entry));
    if (!g_table) {
        g_table = old;
        g_capacity = old_capacity;
        return -1;
    }
    for (size_t i = 0; i < old_capacity; i++) {
        if (old[i].used) *find(&old[i].key) = old[i];
    }
    free(old);
    return 0;
}

/* ---- the meld a step lays down ---- */
enum { STEP_MELD, STEP_LEAVE };

typedef struct {
    int is_run;
    int suit, first, last, jokers; /* a run: suit, positions first..last, bit mask of joker positions */
    int rank, reals, joker_suits;  /* a group: rank, suits held by real cards, suits jokers stand for */
    int kept;                      /* whether it holds a whole old meld (kept, absorbed) */
    uint64_t locked;               /* table jokers of the old melds it keeps: a run's by position
                                      (an ace may stand at both ends), a group's by card */
} Laid;

static int laid_codes(const Laid *m, int *out) {
    int n = 0;
    if (m->is_run) {
        for (int t = m->first; t <= m->last; t++) {
            int card = card_at(t, m->suit);
            if ((m->jokers >> t) & 1) out[n++] = card + JOKER_FLAG;
            else out[n++] = card + (((m->locked >> t) & 1) ? LOCKED_FLAG : 0);
        }
        return n;
    }
    for (int suit = 0; suit < 4; suit++) {
        int card = (m->rank - 1) * 4 + suit;
        if ((m->reals >> suit) & 1) out[n++] = card + (((m->locked >> card) & 1) ? LOCKED_FLAG : 0);
        else if ((m->joker_suits >> suit) & 1) out[n++] = card + JOKER_FLAG;
    }
    return n;
}

/* Whether the laid meld holds every card of block ``b`` as a real card. */
static int holds_block(const Laid *m, int b) {
    const Block *block = &g_blocks[b];
    if (m->is_run != block->is_run) return 0;
    if (!m->is_run) return m->rank == block->rank && (m->reals & block->suits) == block->suits;
    if (m->suit != block->suit || m->first > block->first || m->last < block->last) return 0;
    int span = ((1 << (block->last + 1)) - 1) & ~((1 << block->first) - 1);
    return (m->jokers & span) == 0;
}

/* ---- tracing: the second walk that reads the winning melds back ---- */
static int g_tracing, g_traced;
static int64_t g_trace_target;
static State g_trace_child;
static int g_trace_n, g_trace_kept;
static int g_trace_meld[16];

static int64_t solve(const State *s, int64_t limit);

/* The expansion under way: its limit, the least total found so far, and the block just
   broken whose cards may not all meet again in the first meld (saved and restored
   around nested searches, which use the same globals). */
static int64_t g_limit, g_best;
static int g_avoid = -1;
/* The fewest points the rest of the state under way must leave, as the points program
   found for it or for a state above it, less the points left on the way there (see
   ``points_floor``); 0 when unknown. */
static int64_t g_floor;

/*
 * A finished step: the rest costs solve(child).  Returns the step's total, exact when
 * below the expansion's bound, otherwise a lower bound; remembers the step while
 * tracing if it is the winner.  A step whose own cost already reaches the bound is cut.
 */
static int64_t leaf(const State *child, int64_t extra, int step, const Laid *laid) {
    /* Breaking a block and laying all its cards in one meld again is worse than keeping it. */
    if (step == STEP_MELD && g_avoid >= 0 && holds_block(laid, g_avoid)) return INF;
    State reduced;
    if (step == STEP_MELD && need_of(child) > 0) {
        /* The opening: the meld's value counts toward the value still needed. */
        int codes[16], value = 0;
        int n = laid_codes(laid, codes);
        for (int i = 0; i < n; i++) value += g_value[codes[i] % JOKER_FLAG];
        reduced = *child;
        set_need(&reduced, need_of(child) > value ? need_of(child) - value : 0);
        child = &reduced;
    }
    int64_t limit = g_limit, best = g_best;
    int avoid = g_avoid;
    int64_t bound = best < limit ? best : limit;
    if (extra >= bound) {
        if (extra < g_best) g_best = extra;
        return extra;
    }
    int tracing = g_tracing && !g_traced;
    /* The child's floor: the state's, less the points this step left in the hand (its
       extra is W * points + melds broken, the breaks fewer than W). */
    int64_t floor = g_floor, child_floor = 0;
    if (floor > 0) {
        child_floor = floor - extra / g_weight;
        if (child_floor < 0) child_floor = 0;
    }
    if (child_floor > 0 && extra + child_floor * g_weight >= bound) {
        int64_t total = extra + child_floor * g_weight;
        if (total < g_best) g_best = total;
        return total;
    }
    g_avoid = -1;
    g_floor = child_floor;
    int64_t rest = solve(child, bound - extra);
    g_floor = floor;
    g_limit = limit;
    g_best = best;
    g_avoid = avoid;
    int64_t total = rest >= INF ? INF : rest + extra;
    if (total < g_best) g_best = total;
    if (tracing && total == g_trace_target) {
        g_traced = 1;
        g_trace_child = *child;
        g_trace_n = step == STEP_MELD ? laid_codes(laid, g_trace_meld) : 0;
        g_trace_kept = step == STEP_MELD ? laid->kept : 0;
    }
    return total;
}

/* How many table jokers standing for ``card`` were freed.  A kept block's joker keeps its
   declaration, and so does one locked out of a broken block: neither uses any of the
   card's freeing capacity, so the state marks the freed jokers themselves. */
static int jokers_freed(const State *s, int card) {
    int n = 0;
    for (int i = 0; i < g_njokers; i++)
        if (g_joker_cards[i] == card && (s->w[3] >> (FREED_SHIFT + i)) & 1) n++;
    return n;
}

/* Per block, a bit per entry of the joker list for its table jokers that compete for
   their card's freeing capacity: some jokers of the card may be freed, but not all
   (two jokers declared alike, one real copy). */
static int g_contested[MAXBLOCKS];

/*
 * Block ``b`` breaks: its cards become mandatory loose cards.  A table joker in it is
 * freed (a mandatory wildcard) while fewer jokers of its card are freed than the freeing
 * capacity of that card allows (RULES.md's counting rule, with the capacity fixed by the
 * caller's configuration), else it stays locked: a mandatory card of its declared kind.
 * Freeing whenever allowed never loses, since a wildcard may keep its old declaration,
 * except where jokers of one card compete for the capacity: there a joker that keeps
 * its card should stay locked and leave the capacity to the other, so the callers try
 * both (``lock``: a bit per entry of the joker list to keep locked; see
 * ``next_lock``).  Returns whether a joker was freed.
 */
static int break_block(State *s, int b, int lock) {
    const Block *block = &g_blocks[b];
    uint64_t freed = 0;
    for (int i = 0; block->joker_mask && i < g_njokers; i++) {
        if (g_joker_blocks[i] != b || (lock >> i) & 1) continue;
        int card = g_joker_cards[i];
        if (jokers_freed(s, card) < g_free[card]) {
            freed |= (uint64_t)1 << card;
            s->w[3] |= (uint64_t)1 << (FREED_SHIFT + i);
        }
    }
    s->mask &= ~((uint64_t)1 << b);
    for (int i = 0; i < block->ncards; i++) {
        int card = block->cards[i];
        if ((freed >> card) & 1) add_wild(s);
        else add_mand(s, card);
    }
    return freed != 0;
}

/*
 * The ways block ``b`` can break are its lock masks (see ``break_block``): 0, every joker
 * freed that may be, then each other subset of its contested jokers (``g_contested``)
 * kept locked, where locking changes something (each would be freed otherwise).  A
 * caller loops ``for (lock = 0; lock >= 0; lock = next_lock(s, b, lock))``.
 */
static inline int next_lock(const State *s, int b, int lock) {
    int contested = g_contested[b];
    if (!contested) return -1;
    for (;;) {
        lock = (lock - contested) & contested; /* the next subset, back to 0 after all */
        if (lock == 0) return -1;
        int matters = 1;
        for (int i = 0; i < g_njokers; i++)
            if ((lock >> i) & 1 && jokers_freed(s, g_joker_cards[i]) >= g_free[g_joker_cards[i]]) matters = 0;
        if (matters) return lock;
    }
}

/*
 * The ways one slot holding card ``card`` can be filled from state ``s``: a mandatory
 * copy (then nothing else), else an optional copy, a hand joker, or a card of an
 * intact block that breaks for it.  Below ``low`` only a joker fits.
 */
typedef struct {
    State state;
    int64_t extra;
    int joker;
    int source; /* a wildcard's: 0 mandatory, 1 a hand joker, 2 + b the table joker of block b */
} Option;

/* A slot's options: an optional copy; with three jokers in all, at most four wildcards
   (a hand joker and a joker freed from each block, one of them two ways when its other
   joker competes for its card's capacity); at most four blocks holding the card, two
   of them a second way (a competing joker kept locked): 11.  The blocks' options are
   checked against the room left all the same (past it, the search gives up). */
#define MAX_OPTIONS 12

/* Whether block ``b`` is the first block of the joker list entry ``i`` (a block with two
   jokers is listed twice). */
static int first_joker_entry(int i) {
    for (int j = 0; j < i; j++)
        if (g_joker_blocks[j] == g_joker_blocks[i]) return 0;
    return 1;
}

/*
 * The wildcards a slot can take, as options at ``out``: a mandatory wildcard when one
 * is left (then nothing else: wildcards are alike, and a mandatory one must be used),
 * else a hand joker, or a table joker freed by breaking its intact block for it.
 */
static int wild_options(const State *s, Option *out) {
    if (wild_of(s) > 0) {
        out[0].state = *s;
        take_wild(&out[0].state);
        out[0].extra = 0;
        out[0].joker = 1;
        out[0].source = 0;
        return 1;
    }
    int n = 0;
    if (jokers_of(s) > 0) {
        out[n].state = *s;
        take_joker(&out[n].state);
        out[n].extra = 0;
        out[n].joker = 1;
        out[n].source = 1;
        n++;
    }
    for (int i = 0; i < g_njokers; i++) {
        int b = g_joker_blocks[i];
        if (!((s->mask >> b) & 1) || !first_joker_entry(i)) continue;
        for (int lock = 0; lock >= 0; lock = next_lock(s, b, lock)) {
            if (n >= MAX_OPTIONS - 1) {
                g_aborted = 1;
                break;
            }
            out[n].state = *s;
            if (!break_block(&out[n].state, b, lock)) continue;
            take_wild(&out[n].state);
            out[n].extra = 1;
            out[n].joker = 1;
            out[n].source = 2 + b;
            n++;
        }
    }
    return n;
}

static int slot_options(const State *s, int card, int low, int allow_joker, Option *out) {
    int n = 0;
    if (card < low) return allow_joker ? wild_options(s, out) : 0;
    if (mand_of(s, card) > 0) {
        out[0].state = *s;
        take_mand(&out[0].state, card);
        out[0].extra = 0;
        out[0].joker = 0;
        return 1;
    }
    if (opt_of(s, card) > 0) {
        out[n].state = *s;
        take_opt(&out[n].state, card);
        out[n].extra = 0;
        out[n].joker = 0;
        n++;
    }
    if (allow_joker) n += wild_options(s, &out[n]);
    for (int i = 0; i < g_nholding[card]; i++) {
        int b = g_holding[card][i];
        if (!(s->mask & ((uint64_t)1 << b))) continue;
        for (int lock = 0; lock >= 0; lock = next_lock(s, b, lock)) {
            if (n >= MAX_OPTIONS) {
                g_aborted = 1;
                break;
            }
            out[n].state = *s;
            break_block(&out[n].state, b, lock);
            /* The block's card was a table joker, freed: that is a wildcard option above. */
            if (mand_of(&out[n].state, card) == 0) continue;
            take_mand(&out[n].state, card);
            out[n].extra = 1;
            out[n].joker = 0;
            n++;
        }
    }
    return n;
}

/*
 * Runs of one suit starting at ``first``, filled from position ``t`` upwards, that
 * must cover the prefilled positions ``held_first..held_last`` (the lowest item, or a
 * kept block).  Every end at or past the prefilled part, 3 cards long or more, is a leaf.
 * ``jokers`` marks the positions filled by jokers so far.
 *
 * A run is built from segments: single slots, absorbed blocks and the prefilled part.
 * When a segment starts 3 or more positions after ``first`` (the first such start is
 * ``cut``) and the run reaches 3 positions past it, the run splits there into two legal
 * runs without breaking anything, so it is left out: the two halves are found apart.
 */
static int64_t run_from(const State *s, int suit, int first, int t, int held_first, int held_last, int low,
                        int64_t extra, int cut, int jokers, int kept, uint64_t locked) {
    int64_t best = INF;
    Laid laid = {1, suit, first, 0, jokers, 0, 0, 0, kept, locked};
    if (t == held_first) {
        if (!cut && t >= first + 3) cut = t;
        if (cut && held_last - cut + 1 >= 3) return best;
        t = held_last + 1;
        if (held_last - first + 1 >= 3) {
            laid.last = held_last;
            int64_t v = leaf(s, extra, STEP_MELD, &laid);
            if (v < best) best = v;
        }
        if (t > g_max_position) return best;
    }
    int here = !cut && t >= first + 3 ? t : cut;
    if (!(here && t - here + 1 >= 3)) {
        Option options[MAX_OPTIONS];
        int n = slot_options(s, card_at(t, suit), low, 1, options);
        for (int i = 0; i < n; i++) {
            int64_t spent = extra + options[i].extra;
            int marked = jokers | (options[i].joker << t);
            if (t > held_last && t - first + 1 >= 3) {
                laid.last = t;
                laid.jokers = marked;
                int64_t v = leaf(&options[i].state, spent, STEP_MELD, &laid);
                if (v < best) best = v;
            }
            if (t < g_max_position) {
                int64_t v = run_from(&options[i].state, suit, first, t + 1, held_first, held_last, low, spent,
                                     here, marked, kept, locked);
                if (v < best) best = v;
            }
        }
    }
    /* Whole intact run blocks that start here. */
    for (int i = 0; i < g_nruns_at[suit][t]; i++) {
        int b = g_runs_at[suit][t][i];
        if (!(s->mask & ((uint64_t)1 << b))) continue;
        const Block *block = &g_blocks[b];
        if (t < held_first && block->last >= held_first) continue;
        int end = block->last;
        if (here && end - here + 1 >= 3) continue;
        State next = *s;
        next.mask &= ~((uint64_t)1 << b);
        if (end >= held_last) {
            laid.last = end;
            laid.jokers = jokers;
            laid.kept = 1;
            laid.locked = locked | block->joker_places;
            int64_t v = leaf(&next, extra, STEP_MELD, &laid);
            if (v < best) best = v;
        }
        if (end < g_max_position) {
            int64_t v = run_from(&next, suit, first, end + 1, held_first, held_last, low, extra, here, jokers, 1,
                                 locked | block->joker_places);
            if (v < best) best = v;
        }
    }
    return best;
}

/* Every run start at or below ``held_first`` (lower slots are jokers or later cards);
   ``kept`` when the prefilled part is a kept block, whose table jokers are at the
   positions ``locked``. */
static int64_t runs_through(const State *s, int suit, int held_first, int held_last, int low, int64_t base,
                            int kept, uint64_t locked) {
    int64_t best = INF;
    for (int first = held_first; first >= 1 && held_last - first + 1 <= g_max_position; first--) {
        int64_t v = run_from(s, suit, first, first, held_first, held_last, low, base, 0, 0, kept, locked);
        if (v < best) best = v;
    }
    return best;
}

/*
 * A group of ``rank`` with real cards of the suits ``reals`` and wildcards for
 * ``joker_suits``: a leaf at 3 or 4 cards, and one more wildcard for the next missing
 * suit (which missing suit a wildcard names does not matter).  The wildcards' sources
 * (a mandatory wildcard, a hand joker, a table joker freed by breaking its block) are
 * taken in the order of ``wild_options`` from ``from`` on, so each set of sources is
 * tried once.
 */
static int64_t group_wilds(const State *s, int rank, int reals, int joker_suits, int64_t extra, int from) {
    int64_t best = INF;
    int size = suits_in(reals) + suits_in(joker_suits);
    if (size >= 3) {
        Laid laid = {0, 0, 0, 0, 0, rank, reals, joker_suits, 0, 0};
        best = leaf(s, extra, STEP_MELD, &laid);
    }
    if (size == 4) return best;
    int missing = 0;
    while (((reals | joker_suits) >> missing) & 1) missing++;
    Option options[MAX_OPTIONS];
    int n = wild_options(s, options);
    for (int i = 0; i < n; i++) {
        if (options[i].source && options[i].source < from) continue;
        int64_t v = group_wilds(&options[i].state, rank, reals, joker_suits | 1 << missing, extra + options[i].extra,
                                options[i].source ? options[i].source : from);
        if (v < best) best = v;
    }
    return best;
}

/* Group members of suits ``suit``..3 beyond the real ones in ``reals``, then wildcards to 3 or 4 cards. */
static int64_t group_members(const State *s, int rank, int suit, int skip_suit, int low, int64_t extra,
                             int reals) {
    if (suit == 4) return group_wilds(s, rank, reals, 0, extra, 0);
    int64_t best = group_members(s, rank, suit + 1, skip_suit, low, extra, reals);
    if (suit == skip_suit) return best;
    int card = (rank - 1) * 4 + suit;
    if (card < low) return best;
    Option options[MAX_OPTIONS];
    int n = slot_options(s, card, low, 0, options);
    for (int i = 0; i < n; i++) {
        int64_t v = group_members(&options[i].state, rank, suit + 1, skip_suit, low, extra + options[i].extra,
                                  reals | (1 << suit));
        if (v < best) best = v;
    }
    return best;
}

/* Loose card ``card`` is the pivot; every card below ``low`` is placed already, and every
   step here costs ``base`` more. */
static int64_t expand_card(const State *s, int card, int low, int64_t base) {
    int64_t best = INF;
    State placed = *s;
    int optional = mand_of(s, card) == 0;
    if (optional) take_opt(&placed, card);
    else take_mand(&placed, card);
    int rank = card / 4 + 1, suit = card % 4;
    /* Groups: with a whole group block of three, or built from members and jokers. */
    for (int i = 0; i < g_ngroups_at[rank]; i++) {
        int b = g_groups_at[rank][i];
        const Block *block = &g_blocks[b];
        if (!(placed.mask & ((uint64_t)1 << b)) || block->ncards != 3 || (block->suits >> suit) & 1) continue;
        State next = placed;
        next.mask &= ~((uint64_t)1 << b);
        Laid laid = {0, 0, 0, 0, 0, rank, block->suits | (1 << suit), 0, 1, block->joker_mask};
        int64_t v = leaf(&next, base, STEP_MELD, &laid);
        if (v < best) best = v;
    }
    int64_t v = group_members(&placed, rank, 0, suit, low, base, 1 << suit);
    if (v < best) best = v;
    /* Runs: the card at its rank, and an ace also at the top. */
    v = runs_through(&placed, suit, rank, rank, low, base, 0, 0);
    if (v < best) best = v;
    if (rank == 1 && g_max_position == 14) {
        v = runs_through(&placed, suit, 14, 14, low, base, 0, 0);
        if (v < best) best = v;
    }
    /* Last, as the most costly choice: the card stays in the hand. */
    if (optional) {
        State left = *s;
        left.w[card >> 4] -= (uint64_t)1 << ((card & 15) * 4 + 2);
        v = leaf(&left, base + g_card_cost[card] * g_weight, STEP_LEAVE, NULL);
        if (v < best) best = v;
    }
    return best;
}

/*
 * The lowest pending item is intact block ``b``: kept first, broken last.  Broken, its
 * lowest card is at once the lowest loose card, so its meld is chosen in the same step,
 * and that meld may not hold all the block's cards (keeping the block does better).
 */
static int64_t expand_block(const State *s, int b) {
    const Block *block = &g_blocks[b];
    int64_t best = INF, v;
    State kept = *s;
    kept.mask &= ~((uint64_t)1 << b);
    if (block->is_run) {
        v = runs_through(&kept, block->suit, block->first, block->last, block->key, 0, 1, block->joker_places);
        if (v < best) best = v;
    } else {
        Laid laid = {0, 0, 0, 0, 0, block->rank, block->suits, 0, 1, block->joker_mask};
        v = leaf(&kept, 0, STEP_MELD, &laid);
        if (v < best) best = v;
        if (block->ncards == 3) {
            int missing = 0;
            while ((block->suits >> missing) & 1) missing++;
            int card = (block->rank - 1) * 4 + missing;
            Option options[MAX_OPTIONS];
            int n = slot_options(&kept, card, block->key, 1, options);
            for (int i = 0; i < n; i++) {
                laid.reals = block->suits | (options[i].joker ? 0 : 1 << missing);
                laid.joker_suits = options[i].joker ? 1 << missing : 0;
                v = leaf(&options[i].state, options[i].extra, STEP_MELD, &laid);
                if (v < best) best = v;
            }
        }
    }
    int avoid = g_avoid;
    for (int lock = 0; lock >= 0; lock = next_lock(s, b, lock)) {
        State broken = *s;
        if (break_block(&broken, b, lock)) {
            /* A table joker of the block is freed: its card may be the key no longer, and
               its cards may meet again in one meld (the joker declared otherwise), so the
               break is a step of its own. */
            g_avoid = -1;
            v = leaf(&broken, 1, STEP_LEAVE, NULL);
        } else {
            g_avoid = b;
            v = expand_card(&broken, block->key, block->key, 1);
        }
        g_avoid = avoid;
        if (v < best) best = v;
    }
    return best;
}

/* Table jokers in intact blocks that their card's freeing capacity could still free. */
static int freeable_in_blocks(const State *s) {
    int n = 0;
    for (int i = 0; i < g_njokers; i++)
        if ((s->mask >> g_joker_blocks[i]) & 1 && g_free[g_joker_cards[i]] > 0) n++;
    return n;
}

static int lowest_card(const State *s) {
    for (int w = 0; w < 4; w++) {
        uint64_t bits = s->w[w];
        if (w == 3) bits &= 0xffff;
        if (bits) return w * 16 + __builtin_ctzll(bits) / 4;
    }
    return NKINDS;
}

/* The least cost of the rest below ``limit``, or a lower bound of at least ``limit``. */
static int placeable(int card, uint64_t present, int jokers);
static int placeable_freely(const State *s, int card, uint64_t loose, int jokers);
static inline uint64_t loose_cards(const State *s);

/* How many cards could share a meld with ``card``: the other suits of its rank and its
   neighbours two places either way in its suit, among ``present``. */
static int partners(int card, uint64_t present) {
    int rank = card / 4 + 1, suit = card % 4;
    int count = suits_in((int)((present >> ((rank - 1) * 4)) & 15) & ~(1 << suit));
    for (int at = rank; at <= (rank == 1 ? g_max_position : rank); at += 13)
        for (int t = at - 2; t <= at + 2; t++)
            if (t != at && t >= 1 && t <= g_max_position && (present >> card_at(t, suit)) & 1) count++;
    return count;
}

/*
 * A loose card that fits some meld only by breaking a block, or -1; of several, the one
 * with the fewest partners (then the lowest).  It becomes the pivot ahead of the lowest
 * item: whether and how it is played decides which blocks break, so settling it first
 * cuts the search short where it cannot be placed.
 */
static int critical_card(const State *s) {
    uint64_t loose = loose_cards(s), present = loose;
    for (uint64_t m = s->mask; m; m &= m - 1) present |= g_blocks[__builtin_ctzll(m)].cards_mask;
    int jokers = jokers_of(s) + wild_of(s);
    int all_jokers = jokers + freeable_in_blocks(s);
    int chosen = -1, fewest = 1 << 30;
    for (uint64_t m = loose; m; m &= m - 1) {
        int k = __builtin_ctzll(m);
        if (!placeable(k, present, all_jokers) || placeable_freely(s, k, loose, jokers)) continue;
        int count = partners(k, present);
        if (count < fewest) {
            fewest = count;
            chosen = k;
        }
    }
    return chosen;
}

static int64_t expand(const State *s, int64_t limit) {
    g_limit = limit;
    g_best = INF;
    int card = lowest_card(s);
    int block = -1, key = NKINDS + 1;
    for (uint64_t m = s->mask; m; m &= m - 1) {
        int b = __builtin_ctzll(m);
        if (g_blocks[b].key < key) {
            key = g_blocks[b].key;
            block = b;
        }
    }
    if (card == NKINDS && block < 0) {
        /* The end: something from the hand was played, every freed joker was used and
           the opening (if any) is worth enough; the hand jokers left stay in the hand. */
        if (!played_of(s) || wild_of(s) || need_of(s)) return INF;
        return (int64_t)jokers_of(s) * g_joker_cost * g_weight;
    }
    int low = block >= 0 && key <= card ? key : card;
    int pivot = critical_card(s);
    if (pivot >= 0) expand_card(s, pivot, low, 0);
    else if (block >= 0 && key <= card) expand_block(s, block);
    else expand_card(s, card, low, 0);
    return g_best;
}

/* Whether loose card ``card`` still fits some meld: a group or a 3-card run around it,
   its other slots held by cards in ``present`` (a bit per card) or by jokers. */
static int placeable(int card, uint64_t present, int jokers) {
    int rank = card / 4 + 1, suit = card % 4;
    uint64_t same_rank = ((present >> ((rank - 1) * 4)) & 15) & ~(1u << suit);
    if (suits_in((int)same_rank) + jokers >= 2) return 1;
    for (int i = 0; i < g_nwindows[card]; i++) {
        uint64_t absent = g_windows[card][i] & ~present;
        int missing = (absent != 0) + ((absent & (absent - 1)) != 0);
        if (missing <= jokers) return 1;
    }
    return 0;
}

/*
 * Whether loose card ``card`` fits a meld without breaking a block: with loose cards
 * (``loose``, a bit per card) and jokers only, or growing an intact block (a run block
 * next to it or one slot away, that slot a loose card or a joker; a group block of
 * three that lacks its suit).  Longer gaps are covered by the loose-only runs.
 */
static int placeable_freely(const State *s, int card, uint64_t loose, int jokers) {
    if (placeable(card, loose, jokers)) return 1;
    int rank = card / 4 + 1, suit = card % 4;
    for (int i = 0; i < g_ngroups_at[rank]; i++) {
        int b = g_groups_at[rank][i];
        const Block *block = &g_blocks[b];
        if ((s->mask >> b) & 1 && block->ncards == 3 && !((block->suits >> suit) & 1)) return 1;
    }
    for (int i = 0; i < g_nruns_of[suit]; i++) {
        int b = g_runs_of[suit][i];
        if (!((s->mask >> b) & 1)) continue;
        const Block *block = &g_blocks[b];
        for (int at = rank; at <= (rank == 1 ? g_max_position : rank); at += 13) {
            int gap = block->last < at ? at - block->last - 1 : block->first - at - 1;
            if (gap == 0) return 1;
            if (gap == 1 && (jokers > 0 || (loose >> card_at(block->last < at ? at - 1 : at + 1, suit)) & 1))
                return 1;
        }
    }
    return 0;
}

/* The cards with a loose copy, a bit per card. */
static inline uint64_t loose_cards(const State *s) {
    uint64_t found = 0;
    for (int w = 0; w < 4; w++) {
        uint64_t word = s->w[w];
        if (w == 3) word &= 0xffff;
        uint64_t any = (word | (word >> 1) | (word >> 2) | (word >> 3)) & 0x1111111111111111ULL;
        for (; any; any &= any - 1) found |= (uint64_t)1 << (w * 16 + __builtin_ctzll(any) / 4);
    }
    return found;
}

#include "_lp_bound.h"

/*
 * A lower bound on the cost of the rest: an optional card that no meld can take any
 * more stays in the hand, and a mandatory one makes the state infeasible.  When that
 * bound falls just short of ``limit``: a card that fits only by breaking a block costs
 * at least one more broken meld (or, optional, its cost in the hand, which is more).
 * (That second check is dearer, and only matters there.)
 */
static int64_t lower_bound(const State *s, int64_t limit) {
    if (!played_of(s) && !jokers_of(s)) {
        /* Nothing from the hand played yet and no hand card left to play: no play. */
        uint64_t optional = ((s->w[0] | s->w[1] | s->w[2]) & 0xccccccccccccccccULL) | (s->w[3] & 0xcccc);
        if (!optional) return INF;
    }
    uint64_t loose = loose_cards(s), present = loose;
    for (uint64_t m = s->mask; m; m &= m - 1) present |= g_blocks[__builtin_ctzll(m)].cards_mask;
    /* Wildcards in hand now, and those that breaking a block could still free. */
    int jokers = jokers_of(s) + wild_of(s);
    int all_jokers = jokers + freeable_in_blocks(s);
    int64_t bound = 0;
    uint64_t placed = 0;
    for (uint64_t m = loose; m; m &= m - 1) {
        int k = __builtin_ctzll(m);
        if (placeable(k, present, all_jokers)) {
            placed |= (uint64_t)1 << k;
        } else {
            if (mand_of(s, k)) return INF;
            bound += (int64_t)opt_of(s, k) * g_card_cost[k] * g_weight;
        }
    }
    if (need_of(s) > 0) {
        /* The opening: the pieces left to play must still be worth the value needed. */
        int most = (jokers_of(s) + wild_of(s)) * g_max_value;
        for (int k = 0; k < NKINDS && most < need_of(s); k++) most += (mand_of(s, k) + opt_of(s, k)) * g_value[k];
        if (most < need_of(s)) return INF;
    }
    /* The prices' bound (see _lp_bound.h), where it is known; the "one more break"
       below is added to the cheap bound alone (the prices' bound may count that card
       in the hand already). */
    int64_t priced = g_use_duals && bound < limit ? lp_bound(s) : 0;
    if (priced >= limit) return priced > bound ? priced : bound;
    if (bound + 1 == limit) {
        for (uint64_t m = placed; m; m &= m - 1)
            if (!placeable_freely(s, __builtin_ctzll(m), loose, jokers)) {
                bound++;
                break;
            }
    }
    return priced > bound ? priced : bound;
}

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
 */
#define MAX_PARTS 8
#define PLACE_LANES 0x7ffe7ffe7ffe7ffeULL  /* positions 1..14 of each suit */
#define PLACE_ONES 0x0002000200020002ULL   /* position 1 of each suit */
#define PLACE_TOPS 0x4000400040004000ULL   /* position 14 of each suit */

/* The places of card ``card``: its position, and an ace's top one with ace-high. */
static inline uint64_t places_of(int card) {
    int rank = card / 4 + 1, suit = card % 4;
    uint64_t places = (uint64_t)1 << (suit * 16 + rank);
    if (rank == 1 && g_max_position == 14) places |= (uint64_t)1 << (suit * 16 + 14);
    return places;
}

/* The places one step from ``part``: next in its suit, of its rank in every suit, an
   ace's other place. */
static inline uint64_t next_places(uint64_t part) {
    uint64_t ranks = (part | part >> 16 | part >> 32 | part >> 48) & 0xffff;
    uint64_t near = (part << 1) | (part >> 1) | ranks * 0x0001000100010001ULL;
    near |= ((part & PLACE_ONES) << 13) | ((part & PLACE_TOPS) >> 13);
    return near & PLACE_LANES;
}

/* Whether every joker is settled for good: none in the hand, none freed and unplaced,
   none in an intact block that breaking it could free. */
static int jokers_settled(const State *s) {
    if (jokers_of(s) || wild_of(s)) return 0;
    for (int i = 0; i < g_njokers; i++)
        if ((s->mask >> g_joker_blocks[i]) & 1 && jokers_freed(s, g_joker_cards[i]) < g_free[g_joker_cards[i]])
            return 0;
    return 1;
}

static size_t g_splits; /* states split into parts by the search under way */

/* The state's independent parts as states of their own, into ``parts``; returns how
   many (1 when it does not split, or may not be split). */
static int split_parts(const State *s, State *parts) {
    if (!played_of(s) || need_of(s) || !jokers_settled(s)) return 1;
    uint64_t loose = loose_cards(s), present = 0;
    for (uint64_t m = loose; m; m &= m - 1) present |= places_of(__builtin_ctzll(m));
    for (uint64_t m = s->mask; m; m &= m - 1) present |= g_blocks[__builtin_ctzll(m)].nodes;
    uint64_t left = present;
    int n = 0;
    uint64_t found[MAX_PARTS + 1];
    while (left) {
        uint64_t part = left & -left;
        for (;;) {
            uint64_t grown = part | (next_places(part) & present);
            for (uint64_t m = s->mask; m; m &= m - 1) {
                const Block *block = &g_blocks[__builtin_ctzll(m)];
                if (block->nodes & grown) grown |= block->nodes;
            }
            if (grown == part) break;
            part = grown;
        }
        if (n == MAX_PARTS) return 1;
        found[n++] = part;
        left &= ~part;
    }
    if (n < 2) return 1;
    g_splits++;
    for (int i = 0; i < n; i++) {
        State *part = &parts[i];
        memset(part, 0, sizeof(*part));
        part->w[3] = s->w[3] & ~(uint64_t)0xffff; /* the flags and the freed jokers */
        for (uint64_t m = loose; m; m &= m - 1) {
            int k = __builtin_ctzll(m);
            if (places_of(k) & found[i]) part->w[k >> 4] |= s->w[k >> 4] & ((uint64_t)15 << ((k & 15) * 4));
        }
        for (uint64_t m = s->mask; m; m &= m - 1) {
            int b = __builtin_ctzll(m);
            if (g_blocks[b].nodes & found[i]) part->mask |= (uint64_t)1 << b;
        }
    }
    return n;
}

/*
 * The least cost of independent parts together below ``limit``, or a lower bound of at
 * least ``limit``: each part is solved under what the others' best known bounds leave
 * of the limit, and their sum is exact only when every part's cost is.
 */
static int64_t solve_parts(const State *parts, int n, int64_t limit) {
    int64_t bounds[MAX_PARTS], total = 0;
    for (int i = 0; i < n; i++) {
        Entry *entry = find(&parts[i]);
        bounds[i] = entry->used ? entry->value : lower_bound(&parts[i], -1);
        total = total + bounds[i] >= INF ? INF : total + bounds[i];
    }
    for (int i = 0; i < n && total < limit; i++) {
        int64_t value = solve(&parts[i], limit - (total - bounds[i]));
        if (g_aborted) return INF;
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
 * those prices bound it and every state below it while it is expanded (``g_local``);
 * a program without a solution there ends the state at once (no completion).  The
 * prices are kept in a pool for the state's later rounds.  Each re-solve is charged
 * to the budget as the expansions it costs in time (measured 2026-11-26 on the
 * mid-game suites: about 40 expansions for the program without wildcards, 80 for the
 * first).  Without re-solves the search answered 539 of the 600 mid-game positions
 * within 5,000 expansions; with them 567 (and 590 within 10,000).
 */
#define RESOLVE_WORK 20
#define RESOLVE_COST_SETTLED 40
#define RESOLVE_COST_WILDCARDS 80
#define PRICES_POOL 512

static Prices g_pool[PRICES_POOL], g_pool_spare;
static int g_npool;
static int g_resolve_work; /* the search under way re-solves after this much work (-1: never) */
static size_t g_resolves;  /* and how many it made */

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

static const PointsApi *g_points_api; /* the points program, once its module is imported */
static int g_total_jokers;            /* the search's jokers: table, hand and must-play ones */

/* The points program's capsule, imported on first use (its module imports after this
   one's package); NULL when it cannot be. */
static const PointsApi *points_api(void) {
    static int tried;
    if (!tried) {
        tried = 1;
        PyObject *module = PyImport_ImportModule("solver.fastpath._points");
        Py_XDECREF(module);
        g_points_api = module ? (const PointsApi *)PyCapsule_Import(POINTS_API_CAPSULE, 0) : NULL;
        if (!g_points_api) PyErr_Clear();
    }
    return g_points_api;
}
static int g_points_asking;           /* the search under way asks it (a position without jokers) */
static size_t g_points_asked;         /* and how many questions it asked */

/* Asks the points program about state ``s`` (its cards: table copies must be laid, hand
   copies may be); returns the fewest points, a floor of them (``*exact`` 0: ask again
   later), or INF when the cards cannot be laid out at all. */
static int64_t points_floor(const State *s, int64_t limit, int32_t *exact) {
    int table[NKINDS], hand[NKINDS], points[NKINDS];
    int64_t most = 1; /* more than the whole hand: the answer is exact */
    for (int k = 0; k < NKINDS; k++) {
        table[k] = mand_of(s, k);
        hand[k] = opt_of(s, k);
        points[k] = (int)g_card_cost[k];
        most += (int64_t)hand[k] * points[k];
    }
    for (uint64_t m = s->mask; m; m &= m - 1) {
        const Block *block = &g_blocks[__builtin_ctzll(m)];
        for (int i = 0; i < block->ncards; i++) table[block->cards[i]]++;
    }
    *exact = 1;
    for (int k = 0; k < NKINDS; k++)
        if (table[k] + hand[k] > 3 || points[k] <= 0) return 0; /* not the program's */
    int64_t needed = (limit + g_weight - 1) / g_weight; /* points that reach the limit */
    if (needed > most) needed = most;
    int ace_high = g_max_position == 14;
    g_points_asked++;
    g_expansions += POINTS_COST;
    int64_t found = g_points_api->fewest(ace_high, table, hand, points, needed, POINTS_BUDGET);
    if (found >= 0) return found;
    *exact = 0;
    if (found != -1) return 0; /* past its budget */
    /* None below the limit: the state is cut; the exact answer tells the later rounds
       more, and whether the cards can be laid out at all. */
    g_points_asked++;
    g_expansions += POINTS_COST;
    found = g_points_api->fewest(ace_high, table, hand, points, most, POINTS_BUDGET);
    if (found == -2) return needed;
    *exact = 1;
    return found >= 0 ? found : INF;
}

/* The state's own prices: re-solved for it now, or from its earlier round, or NULL;
   ``value`` rises to their bound (INF when the program has no solution there). */
static const Prices *own_prices(const State *s, const Entry *entry, int known, int64_t limit, int64_t *value,
                                int32_t *pooled, int64_t *floor, int32_t *asked) {
    if (known && entry->prices >= 0) return &g_pool[entry->prices];
    if (g_resolve_work < 0 || !g_use_duals || !known || entry->work < (uint32_t)g_resolve_work || *value >= limit)
        return NULL;
    if (g_points_asking && !*asked) {
        int64_t points = points_floor(s, limit, asked);
        if (points >= INF) {
            *value = INF;
            return NULL;
        }
        if (points > *floor) *floor = points;
        if (points * g_weight > *value) *value = points * g_weight;
        if (*value >= limit) return NULL;
    }
    Prices *slot = g_npool < PRICES_POOL ? &g_pool[g_npool] : &g_pool_spare;
    g_resolves++;
    /* A program without joker columns (settled, or a position without jokers) is the
       smaller one. */
    Program *program = resolve_program(s);
    int small = g_total_jokers == 0 || program == &g_programs[1];
    g_expansions += small ? RESOLVE_COST_SETTLED : RESOLVE_COST_WILDCARDS;
    int found = lp_resolve(program, s, slot);
    if (found < 0) {
        *value = INF;
        return NULL;
    }
    if (found == 0) return NULL;
    int64_t bound = lp_bound_by(s, slot);
    if (bound > *value) *value = bound;
    if (slot != &g_pool_spare) *pooled = g_npool++;
    return slot;
}

/*
 * Memoized: an entry holds the exact cost, or a lower bound when an earlier search
 * below a smaller limit was cut (a branch and bound whose bounds are remembered).
 */
static int64_t solve(const State *s, int64_t limit) {
    if (g_aborted) return INF;
    Entry *entry = find(s);
    if (entry->used && (entry->exact || entry->value >= limit)) return entry->value;
    int known = entry->used;
    int64_t value = lower_bound(s, limit);
    int64_t floor = g_floor;
    if (known && entry->floor > floor) floor = entry->floor;
    if (floor * g_weight > value) value = floor * g_weight;
    int32_t pooled = known ? entry->prices : -1, asked = known ? entry->asked : 0;
    uint32_t work = known ? entry->work : 0;
    const Prices *own =
        value < limit ? own_prices(s, entry, known, limit, &value, &pooled, &floor, &asked) : NULL;
    if (value < limit) {
        size_t start = g_expansions;
        if (++g_expansions > g_budget) {
            g_aborted = 1;
            return INF;
        }
        int tracing = g_tracing;
        g_tracing = 0;
        const Prices *outer = g_local;
        int64_t outer_floor = g_floor;
        if (own) g_local = own;
        State parts[MAX_PARTS];
        int nparts = split_parts(s, parts);
        g_floor = nparts > 1 ? 0 : floor; /* a floor of the whole says nothing of a part */
        int64_t found = nparts > 1 ? solve_parts(parts, nparts, limit) : expand(s, limit);
        g_local = outer;
        g_floor = outer_floor;
        g_tracing = tracing;
        if (g_aborted) return INF;
        if (found > value) value = found;
        size_t spent = g_expansions - start;
        work = spent > UINT32_MAX ? UINT32_MAX : (uint32_t)spent;
    }
    if (!known && (g_count + 1) * 2 > g_capacity && grow() != 0) {
        g_aborted = 1;
        return INF;
    }
    /* expand() may have grown the table: look the slot up again. */
    entry = find(s);
    entry->key = *s;
    entry->value = value;
    entry->exact = value < limit || value >= INF;
    entry->work = work;
    entry->prices = pooled;
    entry->asked = asked;
    entry->floor = floor;
    if (!known) g_count++;
    entry->used = 1;
    return value;
}

/* ---- Python interface ---- */

static int set_block(Block *block, int is_run, int a, int b, int c, unsigned long long jokers, int index) {
    memset(block, 0, sizeof(*block));
    block->is_run = is_run;
    if (is_run) {
        block->suit = a;
        block->first = b;
        block->last = c;
        if (a < 0 || a > 3 || b < 1 || c > g_max_position || c - b + 1 < 3) return -1;
        for (int p = b; p <= c; p++) block->cards[block->ncards++] = card_at(p, a);
        if (g_nruns_at[a][b] >= MAXBLOCKS) return -1;
        g_runs_at[a][b][g_nruns_at[a][b]++] = index;
        g_runs_of[a][g_nruns_of[a]++] = index;
    } else {
        block->rank = a;
        block->suits = b;
        if (a < 1 || a > 13 || b <= 0 || b > 15) return -1;
        for (int suit = 0; suit < 4; suit++)
            if ((b >> suit) & 1) block->cards[block->ncards++] = (a - 1) * 4 + suit;
        if (block->ncards < 3 || g_ngroups_at[a] >= 8) return -1;
        g_groups_at[a][g_ngroups_at[a]++] = index;
    }
    block->key = NKINDS;
    for (int i = 0; i < block->ncards; i++) {
        int card = block->cards[i];
        block->cards_mask |= (uint64_t)1 << card;
        if ((jokers >> card) & 1) {
            if (g_njokers >= 3) return -1;
            g_joker_blocks[g_njokers] = index;
            g_joker_cards[g_njokers++] = card;
        }
        if (card < block->key) block->key = card;
        int seen = 0;
        for (int j = 0; j < g_nholding[card]; j++)
            if (g_holding[card][j] == index) seen = 1;
        if (!seen) {
            if (g_nholding[card] >= 4) return -1;
            g_holding[card][g_nholding[card]++] = index;
        }
    }
    if (jokers & ~block->cards_mask) return -1;
    for (int i = 0; i < block->ncards; i++) block->nodes |= places_of(block->cards[i]);
    block->joker_mask = jokers;
    block->joker_places = 0;
    if (is_run) {
        /* A run from one ace to the other holds the ace's card twice: a joker standing
           for it could be either (the caller leaves such melds to CP-SAT). */
        if (b == 1 && c == 14 && (jokers >> card_at(1, a)) & 1) return -1;
        for (int p = b; p <= c; p++)
            if ((jokers >> card_at(p, a)) & 1) block->joker_places |= (uint64_t)1 << p;
    }
    return 0;
}

static size_t g_last_expansions, g_last_splits;
static int g_last_priced; /* whether the last search used the prices of _lp_bound.h */
static size_t g_last_settled_raised, g_last_resolves, g_last_points_asked;

/* A module function returning one of the last search's counts. */
#define LAST_COUNT(name, count)                                                                                \
    static PyObject *name(PyObject *self, PyObject *args) {                                                    \
        (void)self;                                                                                            \
        (void)args;                                                                                            \
        return PyLong_FromSize_t(count);                                                                       \
    }
LAST_COUNT(last_points_asked, g_last_points_asked)
LAST_COUNT(last_resolves, g_last_resolves)
LAST_COUNT(last_settled, g_last_settled_raised)

static PyObject *last_priced(PyObject *self, PyObject *args) {
    (void)self;
    (void)args;
    return PyBool_FromLong(g_last_priced);
}

static PyObject *set_lp_library(PyObject *self, PyObject *args) {
    (void)self;
    const char *path;
    if (!PyArg_ParseTuple(args, "s", &path)) return NULL;
    if (lp_load(path) != 0) return NULL;
    Py_RETURN_NONE;
}
static int g_last_freed[3], g_nlast_freed; /* the cards of the table jokers the last play freed */

LAST_COUNT(last_expansions, g_last_expansions)
LAST_COUNT(last_splits, g_last_splits)

static PyObject *last_freed(PyObject *self, PyObject *args) {
    (void)self;
    (void)args;
    PyObject *cards = PyTuple_New(g_nlast_freed);
    if (!cards) return NULL;
    for (int i = 0; i < g_nlast_freed; i++) PyTuple_SET_ITEM(cards, i, PyLong_FromLong(g_last_freed[i]));
    return cards;
}

PyDoc_STRVAR(search_doc,
             "search(ace_high, hand, costs, jokers, joker_cost, blocks, budget, *, forced=None,\n"
             "       free=None, wild=0, played=False, values=None, need=0, cap=-1, lp_after=-1,\n"
             "       resolve_work=20, points_floor=True)\n"
             "--\n\n"
             "The best final table: (status, primary, broken, melds).  ``hand`` and ``costs`` give,\n"
             "per card index, the hand's copies that may be played and the cost of leaving one (0 to\n"
             "MAX_COST, as is ``joker_cost``); ``jokers`` hand jokers may be played.  ``blocks`` are\n"
             "the table's melds as (1, suit, first, last) runs or (0, rank, suit mask, 0) groups, with\n"
             "an optional fifth item: a bit per card a table joker in the meld stands for.  Keywords:\n"
             "``forced`` hand copies that must be played, per card; ``free`` how many table jokers\n"
             "declared as each card may be freed; ``wild`` jokers that must be played anywhere;\n"
             "``played`` whether a hand piece counts as played already; ``values`` and ``need``: the\n"
             "new melds must be worth ``need`` (the opening); ``cap``: only a cost below it counts;\n"
             "``lp_after``: after this many expansions (0: at once; -1: never) the states are also\n"
             "bounded by the linear relaxation's prices (see _lp_bound.h; needs set_lp_library);\n"
             "``resolve_work``: with the prices, re-solve them for a state the search comes back to\n"
             "whose last expansion took this many expansions or more (-1: never; see ``solve``);\n"
             "``points_floor``: in a position without jokers, ask the points program there too\n"
             "(see ``points_floor``).\n"
             "``status`` is PLAY for a play (``primary``: the cost of the cards left; ``broken``: the\n"
             "old melds broken; ``melds`` as tuples of card indices, +64 for a wildcard declared as\n"
             "that card, +128 for a table joker kept in its old meld, each starting with a flag: True\n"
             "when it holds a whole old meld), NO_PLAY when no legal play (below ``cap``) exists,\n"
             "OVER_BUDGET when the search needed more than ``budget`` expansions (then primary and\n"
             "broken are -1 and melds is None).");

static PyObject *search(PyObject *self, PyObject *args, PyObject *kwargs) {
    (void)self;
    static char *keywords[] = {"ace_high", "hand", "costs", "jokers", "joker_cost", "blocks", "budget",
                               "forced", "free", "wild", "played", "values", "need", "cap", "lp_after", "resolve_work", "points_floor", NULL};
    int ace_high, jokers, wild = 0, played = 0, need = 0, resolve_work = RESOLVE_WORK, points_floor_on = 1;
    long long joker_cost, budget, cap = -1, lp_after = -1;
    PyObject *hand, *costs, *blocks, *forced = NULL, *free_given = NULL, *values = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "pOOiLOL|$OOipOiLLip", keywords, &ace_high, &hand, &costs, &jokers,
                                     &joker_cost, &blocks, &budget, &forced, &free_given, &wild, &played, &values,
                                     &need, &cap, &lp_after, &resolve_work, &points_floor_on))
        return NULL;
    PyObject *hand_seq = PySequence_Fast(hand, "hand must be a sequence");
    if (!hand_seq) return NULL;
    PyObject *cost_seq = PySequence_Fast(costs, "costs must be a sequence");
    if (!cost_seq) {
        Py_DECREF(hand_seq);
        return NULL;
    }
    PyObject *block_seq = PySequence_Fast(blocks, "blocks must be a sequence");
    if (!block_seq) {
        Py_DECREF(hand_seq);
        Py_DECREF(cost_seq);
        return NULL;
    }
    PyObject *result = NULL;
    if (g_busy) {
        /* Entered again before the last call finished (Python code ran while it made its
           result objects, or another thread did): the globals are in use, so answer
           "past the budget" and the caller asks CP-SAT. */
        result = Py_BuildValue("(iiiO)", SEARCH_OVER_BUDGET, -1, -1, Py_None);
        Py_DECREF(hand_seq);
        Py_DECREF(cost_seq);
        Py_DECREF(block_seq);
        return result;
    }
    g_busy = 1;
    g_last_expansions = 0;
    g_last_splits = 0;
    g_last_priced = 0;
    g_last_settled_raised = 0;
    g_last_resolves = 0;
    g_last_points_asked = 0;
    g_nlast_freed = 0;
    g_njokers = 0;
    State root;
    memset(&root, 0, sizeof(root));
    int forced_counts[NKINDS];
    if (read_counts(forced, 3, forced_counts, "forced") != 0 || read_counts(free_given, 3, g_free, "free") != 0 ||
        read_counts(values, MAX_NEED, g_value, "values") != 0)
        goto done;
    g_max_value = 0;
    for (int k = 0; k < NKINDS; k++)
        if (g_value[k] > g_max_value) g_max_value = g_value[k];
    if (wild < 0 || wild > 3 || need < 0 || need > MAX_NEED) {
        PyErr_Format(PyExc_ValueError, "wild must be 0 to 3 and need 0 to %d", MAX_NEED);
        goto done;
    }
    g_max_position = ace_high ? 14 : 13;
    set_windows();
    memset(g_nholding, 0, sizeof(g_nholding));
    memset(g_nruns_at, 0, sizeof(g_nruns_at));
    memset(g_ngroups_at, 0, sizeof(g_ngroups_at));
    memset(g_nruns_of, 0, sizeof(g_nruns_of));
    if (PySequence_Fast_GET_SIZE(hand_seq) != NKINDS || PySequence_Fast_GET_SIZE(cost_seq) != NKINDS) {
        PyErr_SetString(PyExc_ValueError, "hand and costs need one entry per card index (52)");
        goto done;
    }
    if (jokers < 0 || jokers > 3) {
        PyErr_SetString(PyExc_ValueError, "at most 3 hand jokers");
        goto done;
    }
    g_nblocks = (int)PySequence_Fast_GET_SIZE(block_seq);
    if (g_nblocks > MAXBLOCKS) {
        PyErr_SetString(PyExc_ValueError, "too many table melds for the fast path");
        goto done;
    }
    for (int k = 0; k < NKINDS; k++) {
        long count = PyLong_AsLong(PySequence_Fast_GET_ITEM(hand_seq, k));
        if (count == -1 && PyErr_Occurred()) goto done;
        long long cost = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(cost_seq, k));
        if (cost == -1 && PyErr_Occurred()) goto done;
        if (count < 0 || count > 3) {
            PyErr_SetString(PyExc_ValueError, "a hand holds 0 to 3 copies of a card");
            goto done;
        }
        if (cost < 0 || cost > MAX_COST) {
            PyErr_Format(PyExc_ValueError, "the cost of card %d must be 0 to %d, not %lld", k, MAX_COST, cost);
            goto done;
        }
        root.w[k >> 4] |= (uint64_t)count << ((k & 15) * 4 + 2);
        root.w[k >> 4] |= (uint64_t)forced_counts[k] << ((k & 15) * 4);
        g_card_cost[k] = cost;
    }
    if (joker_cost < 0 || joker_cost > MAX_COST) {
        PyErr_Format(PyExc_ValueError, "the joker cost must be 0 to %d, not %lld", MAX_COST, joker_cost);
        goto done;
    }
    root.w[3] |= (uint64_t)jokers << JOKER_SHIFT;
    root.w[3] |= (uint64_t)wild << WILD_SHIFT;
    root.w[3] |= (uint64_t)need << NEED_SHIFT;
    if (played) root.w[3] |= PLAYED_BIT;
    for (int i = 0; i < g_nblocks; i++) {
        int is_run, a, b, c;
        unsigned long long joker_cards = 0;
        PyObject *item = PySequence_Fast_GET_ITEM(block_seq, i);
        Py_ssize_t size = PyTuple_Check(item) ? PyTuple_GET_SIZE(item) : 0;
        if (size != 4 && size != 5) {
            PyErr_Format(PyExc_TypeError, "table meld %d must be a tuple of 4 or 5 ints", i);
            goto done;
        }
        if (!PyArg_ParseTuple(item, size == 4 ? "iiii" : "iiiiK", &is_run, &a, &b, &c, &joker_cards)) goto done;
        if (set_block(&g_blocks[i], is_run, a, b, c, joker_cards, i) != 0) {
            PyErr_Format(PyExc_ValueError, "table meld %d is not a meld the fast path can hold", i);
            goto done;
        }
        root.mask |= (uint64_t)1 << i;
    }
    g_total_jokers = g_njokers + wild + jokers;
    if (g_njokers + wild + jokers > 3) {
        PyErr_SetString(PyExc_ValueError, "at most 3 jokers in all");
        goto done;
    }
    for (int k = 0; k < NKINDS; k++) {
        /* A state counts up to 3 mandatory and 3 optional copies of a card. */
        if (forced_counts[k] + g_nholding[k] > 3) {
            PyErr_Format(PyExc_ValueError, "card %d: more than 3 copies that must be placed", k);
            goto done;
        }
    }
    memset(g_contested, 0, sizeof(g_contested));
    for (int i = 0; i < g_njokers; i++) {
        int card = g_joker_cards[i], declared = 0;
        for (int j = 0; j < g_njokers; j++) declared += g_joker_cards[j] == card;
        if (g_free[card] > 0 && g_free[card] < declared) g_contested[g_joker_blocks[i]] |= 1 << i;
    }
    g_weight = g_nblocks + 1;
    g_joker_cost = joker_cost;
    g_budget = budget > 0 ? (size_t)budget : 1;
    g_capacity = 1024;
    g_count = 0;
    g_aborted = 0;
    g_tracing = 0;
    g_avoid = -1;
    g_table = (Entry *)calloc(g_capacity, sizeof(Entry));
    if (!g_table) {
        PyErr_NoMemory();
        goto done;
    }
    /* Deepening: first ask for a play of cost 0, then raise the limit to the least cost
       the failed search could not rule out.  Each round cuts every branch at its limit;
       the lower bounds it leaves in the memo make the next round cheap. */
    int64_t total = 0, limit = 1, ceiling = cap >= 0 ? (int64_t)cap : INF;
    g_expansions = 0;
    g_splits = 0;
    g_use_duals = 0;
    g_use_settled = 0;
    g_settled_raised = 0;
    g_local = NULL;
    g_npool = 0;
    g_resolves = 0;
    g_resolve_work = resolve_work;
    g_floor = 0;
    g_points_asked = 0;
    g_points_asking = points_floor_on && g_total_jokers == 0 && points_api() != NULL;
    /* The prices (_lp_bound.h) at once with lp_after 0, or after lp_after expansions
       without them; the memo is kept (the bounds in it stay true). */
    size_t full_budget = g_budget;
    int priced_yet = lp_after < 0 || (size_t)lp_after >= full_budget;
    if (lp_after == 0) {
        lp_prices(&root);
        priced_yet = 1;
    } else if (!priced_yet) {
        g_budget = (size_t)lp_after;
    }
    for (;;) {
        if (limit > ceiling) limit = ceiling;
        total = solve(&root, limit);
        if (g_aborted && !priced_yet) {
            priced_yet = 1;
            lp_prices(&root);
            g_aborted = 0;
            g_budget = full_budget;
            limit = 1;
            continue;
        }
        if (g_aborted || total < limit) break;
        if (total >= ceiling) {
            total = INF; /* nothing below the cap */
            break;
        }
        /* With the prices the bound is close: go up by what the round proved, not by
           doubling (a round far above the least cost explores much more). */
        limit = g_use_duals || total + 1 > 2 * limit ? total + 1 : 2 * limit;
    }
    g_last_priced = g_use_duals;
    g_last_settled_raised = g_settled_raised;
    g_last_resolves = g_resolves;
    g_last_points_asked = g_points_asked;
    g_local = NULL;
    g_last_expansions = g_expansions;
    g_last_splits = g_splits;
    if (g_aborted) {
        result = Py_BuildValue("(iiiO)", SEARCH_OVER_BUDGET, -1, -1, Py_None);
        goto release;
    }
    if (total >= INF) {
        result = Py_BuildValue("(iiiO)", SEARCH_NO_PLAY, -1, -1, Py_None);
        goto release;
    }
    PyObject *melds = PyList_New(0);
    if (!melds) goto release;
    /* The walk back re-finds each winning step from the memo (the bounds it meets are at
       least as tight as the search's), so it expands next to nothing; it has a budget of
       its own all the same, as large as the search's, and past it the search answers
       "over budget" (the caller asks CP-SAT) rather than running on. */
    g_budget = g_expansions + full_budget;
    g_resolve_work = -1; /* the memo's bounds suffice: no more re-solves or questions */
    g_points_asking = 0;
    State at = root;
    for (;;) {
        Entry *entry = find(&at);
        if (!entry->used) {
            PyErr_SetString(PyExc_RuntimeError, "fast path: a state on the winning path was not solved");
            Py_DECREF(melds);
            goto release;
        }
        if (lowest_card(&at) == NKINDS && !at.mask) {
            for (int i = 0; i < g_njokers; i++)
                if ((at.w[3] >> (FREED_SHIFT + i)) & 1) g_last_freed[g_nlast_freed++] = g_joker_cards[i];
            break;
        }
        if (!entry->exact) {
            PyErr_SetString(PyExc_RuntimeError, "fast path: a state on the winning path has no exact cost");
            Py_DECREF(melds);
            goto release;
        }
        g_tracing = 1;
        g_traced = 0;
        g_trace_target = entry->value;
        g_trace_n = 0;
        /* The state's floor as the search had it: the steps it cut by it are cut again. */
        g_floor = entry->floor;
        expand(&at, entry->value + 1);
        g_floor = 0;
        g_tracing = 0;
        if (g_aborted) {
            result = Py_BuildValue("(iiiO)", SEARCH_OVER_BUDGET, -1, -1, Py_None);
            Py_DECREF(melds);
            goto release;
        }
        if (!g_traced) {
            PyErr_SetString(PyExc_RuntimeError, "fast path: the winning step was not found again");
            Py_DECREF(melds);
            goto release;
        }
        if (g_trace_n > 0) {
            PyObject *meld = PyTuple_New(g_trace_n + 1);
            if (!meld) {
                Py_DECREF(melds);
                goto release;
            }
            PyTuple_SET_ITEM(meld, 0, PyBool_FromLong(g_trace_kept));
            for (int i = 0; i < g_trace_n; i++) PyTuple_SET_ITEM(meld, i + 1, PyLong_FromLong(g_trace_meld[i]));
            int failed = PyList_Append(melds, meld);
            Py_DECREF(meld);
            if (failed) {
                Py_DECREF(melds);
                goto release;
            }
        }
        at = g_trace_child;
    }
    /* total = primary * W + broken with broken < W (the lexicographic objective). */
    result = Py_BuildValue("(iLiN)", SEARCH_PLAY, (long long)(total / g_weight), (int)(total % g_weight), melds);
release:
    free(g_table);
    g_table = NULL;
done:
    g_busy = 0;
    Py_DECREF(hand_seq);
    Py_DECREF(cost_seq);
    Py_DECREF(block_seq);
    return result;
}

static PyMethodDef methods[] = {
    {"search", (PyCFunction)(void (*)(void))search, METH_VARARGS | METH_KEYWORDS, search_doc},
    {"last_expansions", last_expansions, METH_NOARGS, "The expansions the last search made (for budgets)."},
    {"last_priced", last_priced, METH_NOARGS,
     "Whether the last search bounded its states with the linear relaxation's prices."},
    {"set_lp_library", set_lp_library, METH_VARARGS,
     "Open HiGHS's shared library at the given path for the prices' bound (once; OSError\n"
     "when it cannot be used).  Without it the search runs without that bound."},
    {"last_settled", last_settled, METH_NOARGS,
     "How many state bounds the last search raised with the prices of the program without\n"
     "wildcards (its states whose jokers are settled; see _lp_bound.h)."},
    {"last_points_asked", last_points_asked, METH_NOARGS,
     "How many questions the last search asked the points program (see ``points_floor``)."},
    {"last_resolves", last_resolves, METH_NOARGS,
     "How many times the last search re-solved its prices for a state (see ``solve``)."},
    {"last_splits", last_splits, METH_NOARGS,
     "How many states the last search split into independent parts (see the module's header)."},
    {"last_freed", last_freed, METH_NOARGS,
     "The cards of the table jokers the last search's play freed (one entry per joker; empty\n"
     "unless it found a play).  The others that left their melds stayed locked."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "solver.fastpath._search", "The fast path's exact partition search.", -1, methods,
};

PyMODINIT_FUNC PyInit__search(void) {
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (PyModule_AddIntConstant(m, "PLAY", SEARCH_PLAY) < 0 ||
        PyModule_AddIntConstant(m, "NO_PLAY", SEARCH_NO_PLAY) < 0 ||
        PyModule_AddIntConstant(m, "OVER_BUDGET", SEARCH_OVER_BUDGET) < 0 ||
        PyModule_AddIntConstant(m, "MAX_COST", MAX_COST) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
