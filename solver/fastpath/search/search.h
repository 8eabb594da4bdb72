/*
 * The hint engine's fast path: an exact, memoized partition search in C.
 *
 * The files: state.h (the state and the problem), problem.c (setting the problem up),
 * memo.c, moves.c (what can happen to a state's pivot), bounds.c (the cheap lower
 * bound), lp_bound.c (the prices' bound), solve.c (a state: memo, bounds, parts,
 * re-solves, the points floor), run.c (deepening and the walk back), module.c (the
 * CPython binding).  This header holds the context every function takes: nothing is
 * global, so searches in several threads, or one started while another waits, never
 * meet.  What one expansion carries (its limit, the best step so far, the block it
 * must not lay whole again, the floor and local prices of its state, the walk back's
 * trace) is a ``Frame`` on the C stack.
 *
 * It answers the same question as the CP-SAT model: which legal final table, made of
 * every table piece and some hand pieces, leaves the fewest points (or cards) in the
 * hand, and among those breaks the fewest old melds.  The Python side (solver/fastpath/__init__.py) decides which positions
 * come here, turns the answer into a Hint, and falls back to CP-SAT when the search
 * outgrows its budget.
 *
 * Items.  Every old meld starts as a *block*: a whole meld that is still intact.  A
 * block is *kept* when one final meld holds all its pieces (as it is, extended, or
 * joined with others; its table jokers may stand for other cards there, a *redeclared
 * keep*: see moves.c's ``Core``), and *broken* otherwise; breaking costs 1 in the
 * tie-break (docs/rules.md: an old meld is unbroken when all its cards end in one meld).  A
 * broken block's cards become *mandatory* loose cards (they must go into some meld);
 * hand cards are *optional* loose cards (they may stay in the hand at their cost).
 * Hand jokers are optional wildcards.
 *
 * Table jokers.  A block records which of its cards are table jokers.  Kept as it is, a
 * joker keeps its declaration (it is a card of its kind in the block); in a redeclared
 * keep it is freed within the same meld (marked, and counted against the capacity
 * below).  Broken, it is freed
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
 * which jokers the play freed from result's ``freed``.
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
 * takes the prices of the position's linear relaxation (lp_bound.c, solved once by
 * HiGHS) and bounds every state with them from then on: that bound sees every card and
 * old meld at once, where the cheap one sees a card at a time.  The root is solved with a limit that starts at 1 and
 * at least doubles (with the prices: rises to it), up to the least cost a failed round
 * could not rule out; each round
 * cuts every branch at its limit and reuses the bounds of the rounds before.  The
 * winning path is then walked again to read off the melds.  A budget on expansions,
 * and one on the expansions of a round once the prices are asked for (run.c), stop the
 * search (the caller then asks CP-SAT).
 *
 * Independent parts.  Once every joker is settled (none in the hand or freed and
 * unplaced, none in an intact block that could still free it), a hand piece is played
 * and no opening value is needed, pending items that no chain of pending items joins
 * (next places in a suit, one rank, one block) can never share a meld: such a state is
 * solved as the sum of its parts, each memoized as a state of its own (see
 * ``split_parts``), instead of every combination of the parts' states.
 */

#ifndef RUMMY_SEARCH_H
#define RUMMY_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "../_points_api.h"
#include "lp_bound.h"
#include "state.h"

/* What a search ends in; the module exports them as PLAY, NO_PLAY and OVER_BUDGET. */
typedef enum { SEARCH_PLAY = 0, SEARCH_NO_PLAY = 1, SEARCH_OVER_BUDGET = 2, SEARCH_FAILED = 3 } SearchStatus;

/* A memo entry: keyed on the whole state. */
typedef struct {
    State key;
    int64_t value;
    int used;
    int exact;
    uint32_t work;  /* expansions its last expansion took, its own included (0: none yet) */
    int32_t prices; /* its own re-solved prices in the pool (see ``solve``), or -1 */
    int32_t asked;  /* the points program has given what it can about it (``points_floor``) */
    int64_t floor;  /* the fewest points its rest must leave, as far as known (see ``leaf``) */
} Entry;

/* The walk back's trace: the step of the expansion that reaches ``target``. */
typedef struct {
    int64_t target;
    int traced;
    State child;
    int n, kept;
    int meld[16];
} Trace;

/* One expansion under way (see the header comment). */
typedef struct {
    int64_t limit, best;
    int avoid;            /* the block just broken whose cards may not all meet again in one meld, or -1 */
    int64_t floor;        /* the fewest points the state's rest must leave (0: unknown) */
    const Prices *local;  /* prices re-solved for the state or above it, or NULL */
    Trace *trace;         /* the walk back's, at its top expansion only; else NULL */
} Frame;

/* The search's options, as the caller gives them. */
typedef struct {
    size_t budget;     /* expansions */
    int64_t cap;       /* only a cost below it counts (-1: none) */
    int64_t lp_after;  /* expansions before the prices are asked for (0: at once; -1: never) */
    int resolve_work;  /* re-solve the prices for a state whose expansion took this much (-1: never) */
    int points_floor;  /* ask the points program in positions without jokers */
    int64_t round_budget; /* expansions one deepening round may take once the prices are asked for (-1: no
                             limit but the budget); past it the search answers OVER_BUDGET (see run.c) */
} Options;

#define MAX_RESULT_MELDS 64

/* What a search found, and the work it did. */
typedef struct {
    SearchStatus status;
    const char *failure; /* SEARCH_FAILED: what went wrong */
    int64_t primary, broken;
    int nmelds;
    int meld_size[MAX_RESULT_MELDS];
    int meld_kept[MAX_RESULT_MELDS];
    int melds[MAX_RESULT_MELDS][16];
    int freed[MAX_JOKERS], nfreed; /* the cards of the table jokers the play freed */
    size_t expansions, splits, settled_raised, resolves, points_asked, visits, steps;
    int priced;
} Answer;

typedef struct Search {
    Problem problem;
    /* the memo: open addressing on the whole state */
    Entry *table;
    size_t capacity, count;
    size_t budget, expansions;
    size_t visits; /* states solve() was asked about (memo hits included): the work between expansions */
    size_t steps;  /* finished steps (``leaf``), cut or solved: the work of laying melds */
    int aborted;
    size_t splits; /* states split into independent parts */
    /* the prices (lp_bound.c) and their re-solves */
    LpBound *lp; /* allocated on first use */
    int resolve_work;
    size_t resolves;
    /* the points program */
    const PointsApi *points_api;
    int points_asking;
    size_t points_asked;
} Search;

/* memo.c */
Entry *memo_find(Search *S, const State *s);
int memo_grow(Search *S);
int memo_start(Search *S);
void memo_end(Search *S);

/* moves.c */
int64_t expand(Search *S, const State *s, Frame *F);
int lowest_card(const State *s);

/* bounds.c */
int placeable(const Problem *p, int card, uint64_t present, int jokers);
int placeable_freely(const Problem *p, const State *s, int card, uint64_t loose, int jokers, int for_bound);
int freeable_in_blocks(const Problem *p, const State *s);
int64_t lower_bound(Search *S, const State *s, int64_t limit, const Prices *local);

/* solve.c */
int64_t solve(Search *S, const State *s, int64_t limit, int64_t floor, const Prices *local);

/* run.c */
void search_run(Search *S, const State *root, const Options *options, const LpLibrary *library, Answer *answer);

/* problem.c */
void problem_start(Problem *p, int ace_high);
int problem_add_block(Problem *p, int is_run, int a, int b, int c, unsigned long long jokers);
void problem_finish(Problem *p, int jokers, int wild, int64_t joker_cost);

#endif
