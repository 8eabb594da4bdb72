/*
 * One search from its root: the deepening rounds, then the walk back that reads the
 * winning melds off the memo.  Pure C: the binding runs it without the GIL.
 */

#include <stdlib.h>
#include <string.h>

#include "search.h"

/* The context's relaxation for this search: set up when HiGHS is open (allocated on a
   context's first such search and kept with it), else none. */
static void start_prices(Search *S, const LpLibrary *library) {
    if (library && !S->lp) S->lp = (LpBound *)calloc(1, sizeof(LpBound));
    if (S->lp) lp_start(S->lp, library);
}

static int prices_in_use(const Search *S) { return S->lp && S->lp->use_duals; }

/* Asks HiGHS for the prices of the root; returns whether it could be asked. */
static int ask_prices(Search *S, const State *root) {
    if (!S->lp || !S->lp->library) return 0;
    lp_prices(S->lp, &S->problem, root);
    return 1;
}

/*
 * Once the prices were asked for (HiGHS open; not with ``lp_after`` -1), a round past
 * the round budget gives up, as past the whole budget: the search is not converging,
 * and CP-SAT answers sooner.  On the suites (2026-11-27) every round that
 * ended within the budget took at most 4,899 expansions but one (7,870, a position
 * CP-SAT answers faster), while 12 of the 31 positions that outgrew the budget spent
 * 5,000 or more in one round: with 5,000 they give up at 5,600-9,300 expansions instead
 * of 10,000, and the mid-game suites lose no position to CP-SAT
 * (benchmarks/results/tail-experiments.md).
 */
static void start_round(Search *S, const Options *options, size_t full_budget) {
    S->budget = full_budget;
    if (options->round_budget >= 0 && S->expansions + (size_t)options->round_budget < full_budget)
        S->budget = S->expansions + (size_t)options->round_budget;
}

/*
 * Deepening: first ask for a play of cost 0, then raise the limit to the least cost
 * the failed search could not rule out.  Each round cuts every branch at its limit;
 * the lower bounds it leaves in the memo make the next round cheap.  The prices
 * (lp_bound.c) come at once with ``lp_after`` 0, or after ``lp_after`` expansions
 * without them; the memo is kept (the bounds in it stay true).  Returns the root's
 * least cost (INF: none below the cap), or INF with ``S->aborted`` set.
 */
static int64_t deepen(Search *S, const State *root, const Options *options) {
    int64_t total = 0, limit = 1, ceiling = options->cap >= 0 ? options->cap : INF;
    size_t full_budget = S->budget;
    int priced_yet = options->lp_after < 0 || (size_t)options->lp_after >= full_budget;
    int asked = 0; /* the prices were asked for: rounds from then on have a round budget */
    if (options->lp_after == 0) {
        asked = ask_prices(S, root);
        priced_yet = 1;
    } else if (!priced_yet) {
        S->budget = (size_t)options->lp_after;
    }
    for (;;) {
        if (limit > ceiling) limit = ceiling;
        if (asked) start_round(S, options, full_budget);
        total = solve(S, root, limit, 0, NULL);
        if (S->aborted && !priced_yet) {
            priced_yet = 1;
            asked = ask_prices(S, root);
            S->aborted = 0;
            S->budget = full_budget;
            limit = 1;
            continue;
        }
        if (S->aborted || total < limit) break;
        if (total >= ceiling) return INF; /* nothing below the cap */
        /* With the prices the bound is close: go up by what the round proved, not by
           doubling (a round far above the least cost explores much more). */
        limit = prices_in_use(S) || total + 1 > 2 * limit ? total + 1 : 2 * limit;
    }
    return total;
}

static void fail(Answer *answer, SearchStatus status, const char *failure) {
    answer->status = status;
    answer->failure = failure;
}

/* The winning step from ``at`` (its memo entry ``entry``), found again: 0, or -1 with
   the answer's status set. */
static int walk_step(Search *S, const State *at, const Entry *entry, Trace *trace, Answer *answer) {
    if (!entry->exact) {
        fail(answer, SEARCH_FAILED, "fast path: a state on the winning path has no exact cost");
        return -1;
    }
    memset(trace, 0, sizeof(*trace));
    trace->target = entry->value;
    /* The state's floor as the search had it: the steps it cut by it are cut again. */
    Frame frame = {entry->value + 1, INF, -1, entry->floor, NULL, trace};
    expand(S, at, &frame);
    if (S->aborted) {
        fail(answer, SEARCH_OVER_BUDGET, NULL);
        return -1;
    }
    if (!trace->traced) {
        fail(answer, SEARCH_FAILED, "fast path: the winning step was not found again");
        return -1;
    }
    if (trace->n == 0) return 0;
    if (answer->nmelds >= MAX_RESULT_MELDS) {
        fail(answer, SEARCH_FAILED, "fast path: too many melds in the answer");
        return -1;
    }
    int m = answer->nmelds++;
    answer->meld_kept[m] = trace->kept;
    answer->meld_size[m] = trace->n;
    memcpy(answer->melds[m], trace->meld, sizeof(int) * (size_t)trace->n);
    return 0;
}

/*
 * The walk back re-finds each winning step from the memo (the bounds it meets are at
 * least as tight as the search's), so it expands next to nothing; it has a budget of
 * its own all the same, as large as the search's, and past it the search answers
 * "over budget" (the caller asks CP-SAT) rather than running on.
 */
static void walk_back(Search *S, const State *root, size_t full_budget, Answer *answer) {
    S->budget = S->expansions + full_budget;
    S->resolve_work = -1; /* the memo's bounds suffice: no more re-solves or questions */
    S->points_asking = 0;
    State at = *root;
    for (;;) {
        const Entry *entry = memo_find(S, &at);
        if (!entry->used) {
            fail(answer, SEARCH_FAILED, "fast path: a state on the winning path was not solved");
            return;
        }
        if (lowest_card(&at) == NKINDS && !at.mask) {
            const Problem *p = &S->problem;
            for (int i = 0; i < p->njokers; i++)
                if ((at.w[3] >> (FREED_SHIFT + i)) & 1) answer->freed[answer->nfreed++] = p->joker_cards[i];
            return;
        }
        Trace trace;
        if (walk_step(S, &at, entry, &trace, answer) != 0) return;
        at = trace.child;
    }
}

/* The work counters of the search (the walk back's not counted). */
static void count_work(const Search *S, Answer *answer) {
    answer->expansions = S->expansions;
    answer->splits = S->splits;
    answer->priced = prices_in_use(S);
    answer->settled_raised = S->lp ? S->lp->settled_raised : 0;
    answer->resolves = S->resolves;
    answer->points_asked = S->points_asked;
    answer->visits = S->visits;
    answer->steps = S->steps;
}

/*
 * Searches the problem set in ``S`` from ``root`` (``library``: HiGHS, or NULL) into
 * ``answer``: PLAY with the least cost and its melds, NO_PLAY, OVER_BUDGET, or FAILED
 * (out of memory, or an inconsistency named in ``failure``).
 */
void search_run(Search *S, const State *root, const Options *options, const LpLibrary *library, Answer *answer) {
    memset(answer, 0, sizeof(*answer));
    S->budget = options->budget > 0 ? options->budget : 1;
    S->expansions = S->splits = S->resolves = S->points_asked = S->visits = S->steps = 0;
    S->aborted = 0;
    S->resolve_work = options->resolve_work;
    S->points_asking = options->points_floor && S->problem.total_jokers == 0 && S->points_api != NULL;
    start_prices(S, library);
    if (memo_start(S) != 0) {
        fail(answer, SEARCH_FAILED, NULL);
        return;
    }
    size_t full_budget = S->budget;
    int64_t total = deepen(S, root, options);
    count_work(S, answer);
    if (S->aborted) fail(answer, SEARCH_OVER_BUDGET, NULL);
    else if (total >= INF) fail(answer, SEARCH_NO_PLAY, NULL);
    else {
        answer->status = SEARCH_PLAY;
        walk_back(S, root, full_budget, answer);
        /* total = primary * W + broken with broken < W (the lexicographic objective). */
        answer->primary = total / S->problem.weight;
        answer->broken = total % S->problem.weight;
    }
    memo_end(S);
}
