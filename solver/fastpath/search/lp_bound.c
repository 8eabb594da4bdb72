/*
 * The search's second lower bound: prices from the linear relaxation of the position.
 *
 * Why.  The cheap bound sees one card at a time: a hand card that some meld could take
 * counts as playable, even where taking it would leave other cards that no meld can
 * hold.  Proving that such a card cannot be played made the search visit tens of
 * thousands of states.  A linear program sees every card at once.
 *
 * The program.  The relaxation of the state at the root of a search, the cost as the
 * search counts it (W * points left + melds broken), every quantity a real number:
 *  - rows: one per card (the copies melds take equal the mandatory copies, plus the
 *    hand copies played, plus the cards of broken old melds), one for jokers, one per
 *    old meld (kept in one of its forms, or broken: together exactly 1), and one per
 *    table joker (as a card or as a wildcard, at most as much as its meld is broken);
 *  - columns: every group and every run of 3 to 5 places (longer runs are unions of
 *    these) that the cards present could form, with up to two jokers and at least one
 *    real card; the hand copies played (each worth W times its points); each old meld
 *    broken (worth 1), and kept as it is or grown by up to two places at each end (a
 *    run) or by its fourth suit (a group of three); each table joker as a card, or as a
 *    wildcard where the search's freeing capacity for its card is not 0 (a joker no
 *    real copy can free stays its card: treating it as a wildcard left the bound
 *    several points short on such tables).
 * HiGHS (the copy OR-Tools ships, opened at run time) solves it; a basis is not needed,
 * only the row prices y (the duals).
 *
 * The bound.  Any prices y with no column of negative reduced cost (checked here, in
 * exact terms of the columns, before they are used) bound every state below the root
 * too, since a state differs from the root only in its right-hand side and the hand
 * copies' upper bounds (LP duality): the least cost of the rest is at least
 *     sum over mandatory copies of y[card] + sum over optional copies of min(W * cost, y[card])
 *   + mandatory wildcards * y[joker] + hand jokers * min(W * joker cost, y[joker])
 *   + sum over intact old melds of y[meld],
 * rounded up to a whole number (less a small tolerance), and then to the next multiple
 * of W where the points it implies are fractional: the cost is W * points + breaks, the
 * breaks at most the intact melds, so the points are at least (bound - intact) / W.
 * It costs about as much as
 * one expansion, so it is computed for every state the search meets once the prices
 * are known.  The search asks for the prices only after a first stretch of its budget
 * (most positions are settled before that), and keeps its memo: bounds proved
 * without the prices stay true.
 *
 * A second program for settled states.  A wildcard fits nearly anywhere, and the
 * relaxation spreads it over several melds at once (half a joker here, half there),
 * which leaves the bound short while one is still to be placed.  Once a state's jokers
 * are settled (``jokers_settled``: none in the hand or freed and unplaced, none in an
 * intact meld that could still free it) no column with a joker can be used any more,
 * so the prices of the same program without them (no joker columns, every table joker
 * a card) bound such states too, by the same duality, and usually more tightly.  Both
 * are solved when the prices are first asked for (the second only where the position
 * has a joker); a settled state takes the larger bound.  On the mid-game suites this
 * lets the search answer 15 more of the 600 positions within its budget.
 *
 * The relaxation leaves out the opening rule, the rest of the counting rule of table
 * jokers (how many of them the capacity frees at most) and "a hand piece must be
 * played": each only makes it looser, so the bound stays a bound.  It is not
 * used with three jokers or more in all (a run could then hold a piece of jokers
 * alone, which its columns do not cover).
 */

#include "lp_bound.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#ifndef _WIN32
#include <dlfcn.h>
#else
/* No dlopen: the library is never opened, and the search runs without the prices. */
static void *dlopen(const char *path, int flags) { (void)path; (void)flags; return NULL; }
static void *dlsym(void *library, const char *name) { (void)library; (void)name; return NULL; }
static int dlclose(void *library) { (void)library; return 0; }
static const char *dlerror(void) { return "not available on this system"; }
#define RTLD_NOW 0
#define RTLD_LOCAL 0
#endif

#define HIGHS_OPTIMAL 7   /* kHighsModelStatusOptimal */
#define HIGHS_INFEASIBLE 8 /* kHighsModelStatusInfeasible */
#define HIGHS_COLWISE 1   /* kHighsMatrixFormatColwise */
#define HIGHS_MINIMIZE 1  /* kHighsObjSenseMinimize */
#define LP_JOKER_ROW NKINDS
#define LP_TOLERANCE 1e-7 /* HiGHS's own dual feasibility tolerance; a play uses at most
                             about 120 columns, so the bound errs by at most 1.2e-5, well
                             within the 1e-4 it gives away before rounding up */
#define LP_ITERATION_LIMIT 2000 /* simplex iterations: the guard that decides (see lp_solvers_ready) */
#define LP_TIME_LIMIT 1.0       /* seconds: a last resort only */

/* Reads HiGHS's functions from the open ``handle``; 0, or -1 naming the one missing. */
static int lp_symbols(LpLibrary *library, void *handle, const char *path, char *error, size_t size) {
#define LP_SYMBOL(field, type, name)                                                                           \
    library->field = (type)dlsym(handle, name);                                                                \
    if (!library->field) {                                                                                     \
        snprintf(error, size, "the LP library %s has no %s", path, name);                                      \
        return -1;                                                                                             \
    }
    LP_SYMBOL(create, highs_create_fn, "Highs_create")
    LP_SYMBOL(destroy, highs_destroy_fn, "Highs_destroy")
    LP_SYMBOL(set_bool, highs_set_bool_fn, "Highs_setBoolOptionValue")
    LP_SYMBOL(set_string, highs_set_string_fn, "Highs_setStringOptionValue")
    LP_SYMBOL(set_int, highs_set_int_fn, "Highs_setIntOptionValue")
    LP_SYMBOL(set_double, highs_set_double_fn, "Highs_setDoubleOptionValue")
    LP_SYMBOL(pass_lp, highs_pass_lp_fn, "Highs_passLp")
    LP_SYMBOL(run, highs_run_fn, "Highs_run")
    LP_SYMBOL(zero_clocks, highs_zero_clocks_fn, "Highs_zeroAllClocks")
    LP_SYMBOL(model_status, highs_model_status_fn, "Highs_getModelStatus")
    LP_SYMBOL(get_solution, highs_get_solution_fn, "Highs_getSolution")
    LP_SYMBOL(change_rows, highs_change_bounds_fn, "Highs_changeRowsBoundsByRange")
    LP_SYMBOL(change_cols, highs_change_bounds_fn, "Highs_changeColsBoundsByRange")
#undef LP_SYMBOL
    library->get_dual_ray = (highs_get_dual_ray_fn)dlsym(handle, "Highs_getDualRay");
    return 0;
}

int lp_library_open(LpLibrary *library, const char *path, char *error, size_t size) {
    if (library->library) return 0;
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(error, size, "cannot open the LP library %s: %s", path, dlerror());
        return -1;
    }
    LpLibrary found;
    memset(&found, 0, sizeof(found));
    if (lp_symbols(&found, handle, path, error, size) != 0) {
        dlclose(handle);
        return -1;
    }
    highs_sizeof_int_fn sizeof_int = (highs_sizeof_int_fn)dlsym(handle, "Highs_getSizeofHighsInt");
    void *highs = found.create();
    int fits = sizeof_int && highs && sizeof_int(highs) == (HighsIntT)sizeof(HighsIntT);
    if (highs) found.destroy(highs);
    if (!fits) {
        dlclose(handle);
        snprintf(error, size, "the LP library %s is not a HiGHS this module can call", path);
        return -1;
    }
    found.library = handle;
    *library = found;
    return 0;
}

void lp_library_close(LpLibrary *library) {
    if (library->library) dlclose(library->library);
    memset(library, 0, sizeof(*library));
}

/* The context's two solver objects, created with the options every solve uses; 0, or
   -1 when HiGHS cannot make them (the search then runs without the prices). */
static int lp_solvers_ready(LpBound *lp) {
    if (lp->solvers[0] && lp->solvers[1]) return 0;
    const LpLibrary *highs = lp->library;
    for (int i = 0; i < 2; i++) {
        if (lp->solvers[i]) continue;
        void *object = highs->create();
        if (!object) return -1;
        highs->set_bool(object, "output_flag", 0);
        highs->set_string(object, "presolve", "off");
        highs->set_string(object, "solver", "simplex");
        /* One thread: no worker threads that a forked process (a pool worker) would lose. */
        highs->set_int(object, "threads", 1);
        highs->set_string(object, "parallel", "off");
        /* A guard: a program not solved within LP_ITERATION_LIMIT iterations gives no
           prices (the search goes on without them).  A count, not a time, so that the
           same position gets the same search on a busy machine (a 50 ms time limit left
           a loaded run without prices on one suite position).  The programs take a few
           hundred iterations, about a millisecond: on the suites 400 change nothing, 100
           leave some unpriced; the time limit is only a backstop. */
        highs->set_int(object, "simplex_iteration_limit", LP_ITERATION_LIMIT);
        highs->set_double(object, "time_limit", LP_TIME_LIMIT);
        lp->solvers[i] = object;
    }
    return 0;
}

void lp_start(LpBound *lp, const LpLibrary *library) {
    if (lp->library != library) lp_free_solvers(lp);
    lp->library = library;
    lp->use_duals = lp->use_settled = 0;
    lp->settled_raised = 0;
    lp->npool = 0;
    lp->programs[0].ready = lp->programs[1].ready = 0;
}

void lp_free_solvers(LpBound *lp) {
    for (int i = 0; i < 2; i++) {
        if (lp->solvers[i] && lp->library) lp->library->destroy(lp->solvers[i]);
        lp->solvers[i] = NULL;
    }
}

/* The solver object that holds ``program``. */
static inline void *program_solver(const LpBound *lp, const Program *program) {
    return program == &lp->programs[0] ? lp->solvers[0] : lp->solvers[1];
}

static void lp_column(Program *program, double cost, double upper) {
    if (program->ncols >= LP_MAX_COLS) {
        program->overflow = 1;
        return;
    }
    program->cost[program->ncols] = cost;
    program->lower[program->ncols] = 0;
    program->upper[program->ncols] = upper;
    program->start[program->ncols] = program->nnz;
    program->ncols++;
}

static void lp_entry(Program *program, int row, double value) {
    if (program->overflow) return;
    /* A row named twice in one column (an ace at both ends of a run) adds up: HiGHS
       refuses a matrix with repeated entries. */
    for (int e = program->start[program->ncols - 1]; e < program->nnz; e++)
        if (program->index[e] == row) {
            program->value[e] += value;
            return;
        }
    if (program->nnz >= LP_MAX_NZ) {
        program->overflow = 1;
        return;
    }
    program->index[program->nnz] = row;
    program->value[program->nnz] = value;
    program->nnz++;
}

/* A run's card at each of ``count`` places from ``first`` of ``suit``, with the places in
   ``joker_places`` (bits from 0) held by jokers: a column when every real card is
   present.  ``block_row`` >= 0: the run is that old meld kept, grown by these places. */
/* Entries a kept old meld's columns add besides its row: its moved jokers released, and
   real copies for their places (see ``lp_redeclared``). */
typedef struct {
    int n;
    int row[2 * MAX_JOKERS];
    double value[2 * MAX_JOKERS];
} LpExtra;

static void lp_run_places(Program *program, const int *places, int count, int suit, int joker_places,
                          const int *present, int block_row, const LpExtra *extra) {
    int jokers = 0;
    for (int i = 0; i < count; i++) {
        if ((joker_places >> i) & 1) jokers++;
        else if (!present[card_at(places[i], suit)]) return;
    }
    lp_column(program, 0, HUGE_VAL);
    if (block_row >= 0) lp_entry(program, block_row, 1);
    for (int i = 0; extra && i < extra->n; i++) lp_entry(program, extra->row[i], extra->value[i]);
    for (int i = 0; i < count; i++)
        if (!((joker_places >> i) & 1)) lp_entry(program, card_at(places[i], suit), 1);
    if (jokers) lp_entry(program, LP_JOKER_ROW, jokers);
}

/* Every way of filling ``count`` places with real cards and up to ``max_jokers`` jokers
   (at least one real card for a new meld: ``block_row`` < 0). */
static void lp_run_fills(Program *program, const int *places, int count, int suit, int max_jokers, const int *present,
                         int block_row, const LpExtra *extra) {
    for (int mask = 0; mask < (1 << count); mask++) {
        int jokers = suits_in(mask & 15) + suits_in((mask >> 4) & 15);
        if (jokers > max_jokers || (block_row < 0 && jokers == count)) continue;
        lp_run_places(program, places, count, suit, mask, present, block_row, extra);
    }
}

static int lp_read(LpBound *lp, const Problem *p, Program *program, Prices *out);

#define LP_COLUMN_MOST 10.0 /* no column can take more: each covers a card (at most 3 to
                               place, 3 in the hand, one per broken meld holding it, at most
                               4), an old meld (1) or a table joker (1) */

/*
 * Whether HiGHS's claim that the program has no solution holds, checked in exact terms
 * of the columns as the prices are (warm re-solves are where simplex codes err): its
 * Farkas ray r, taken either way round, must price every "at most 0" row at most 0, and
 * the rows' right-hand sides must outweigh what any columns in their bounds can reach,
 *     sum over equality rows of r * rhs  >  sum over columns of most(x) * max(0, r.A),
 * with an unbounded column counted at LP_COLUMN_MOST.  Then no x meets the rows.
 */
static int lp_infeasible_proved(LpBound *lp, const Problem *p, const Program *program, void *highs) {
    double *ray = lp->ray;
    const LpLibrary *library = lp->library;
    HighsIntT has_ray = 0;
    if (!library->get_dual_ray || library->get_dual_ray(highs, &has_ray, ray) < 0 || !has_ray) return 0;
    int pieces = NKINDS + 1 + p->nblocks; /* the "at most 0" rows, from here on */
    for (int sign = 1; sign >= -1; sign -= 2) {
        int ok = 1;
        for (int r = pieces; r < program->nrows; r++)
            if (!(sign * ray[r] <= 0)) ok = 0;
        if (!ok) continue;
        double gap = 0, scale = 1;
        for (int r = 0; r < pieces; r++) {
            if (!isfinite(ray[r])) ok = 0;
            gap += sign * ray[r] * program->rhs[r];
            scale += fabs(ray[r]) * (1 + fabs(program->rhs[r]));
        }
        for (int c = 0; c < program->ncols && ok; c++) {
            double reach = 0;
            for (int e = program->start[c]; e < program->start[c + 1]; e++)
                reach += sign * ray[program->index[e]] * program->value[e];
            if (reach > 0) gap -= reach * (program->upper[c] == HUGE_VAL ? LP_COLUMN_MOST : program->upper[c]);
        }
        if (ok && gap > 1e-9 * scale) return 1;
    }
    return 0;
}

/* New groups (real suits of a rank and jokers, 3 or 4 in all) and new runs of 3 to 5
   places, from the cards ``present``. */
static void lp_new_melds(Program *program, const Problem *p, const int *present, int all_jokers) {
    for (int rank = 1; rank <= 13; rank++) {
        for (int suits = 1; suits < 16; suits++) {
            int reals = suits_in(suits), ok = 1;
            for (int suit = 0; suit < 4; suit++)
                if ((suits >> suit) & 1 && !present[(rank - 1) * 4 + suit]) ok = 0;
            if (!ok) continue;
            for (int jokers = 0; jokers <= all_jokers; jokers++) {
                if (reals + jokers < 3 || reals + jokers > 4) continue;
                lp_column(program, 0, HUGE_VAL);
                for (int suit = 0; suit < 4; suit++)
                    if ((suits >> suit) & 1) lp_entry(program, (rank - 1) * 4 + suit, 1);
                if (jokers) lp_entry(program, LP_JOKER_ROW, jokers);
            }
        }
    }
    for (int suit = 0; suit < 4; suit++)
        for (int first = 1; first <= p->max_position - 2; first++)
            for (int length = 3; length <= 5 && first + length - 1 <= p->max_position; length++) {
                int places[5];
                for (int i = 0; i < length; i++) places[i] = first + i;
                lp_run_fills(program, places, length, suit, all_jokers, present, -1, NULL);
            }
}

/* Hand copies played, and hand jokers. */
static void lp_hand(Program *program, const Problem *p, const State *root, int all_jokers) {
    for (int k = 0; k < NKINDS; k++) {
        if (!opt_of(root, k)) continue;
        program->hand_column[k] = program->ncols;
        lp_column(program, -(double)p->weight * (double)p->card_cost[k], opt_of(root, k));
        lp_entry(program, k, -1);
    }
    if (all_jokers && jokers_of(root)) {
        program->hand_column[NKINDS] = program->ncols;
        lp_column(program, -(double)p->weight * (double)p->joker_cost, jokers_of(root));
        lp_entry(program, LP_JOKER_ROW, -1);
    }
}

/* Old meld ``b`` kept in one of its forms: a run grown by up to two places at each end,
   a group as it is or with its fourth suit; each column with ``extra`` entries. */
static void lp_kept_forms(Program *program, const Problem *p, int b, const int *present, int all_jokers,
                          const LpExtra *extra) {
    const Block *block = &p->blocks[b];
    int row = NKINDS + 1 + b;
    if (block->is_run) {
        for (int below = 0; below <= 2; below++)
            for (int above = 0; above <= 2; above++) {
                if (block->first - below < 1 || block->last + above > p->max_position) continue;
                int places[4], count = 0;
                for (int at = block->first - below; at < block->first; at++) places[count++] = at;
                for (int at = block->last + 1; at <= block->last + above; at++) places[count++] = at;
                lp_run_fills(program, places, count, block->suit, all_jokers, present, row, extra);
            }
        return;
    }
    lp_column(program, 0, HUGE_VAL);
    lp_entry(program, row, 1);
    for (int i = 0; extra && i < extra->n; i++) lp_entry(program, extra->row[i], extra->value[i]);
    if (block->ncards != 3 || extra) return;
    int missing = 0;
    while ((block->suits >> missing) & 1) missing++;
    int card = (block->rank - 1) * 4 + missing;
    if (present[card]) {
        lp_column(program, 0, HUGE_VAL);
        lp_entry(program, row, 1);
        lp_entry(program, card, 1);
    }
    if (all_jokers) {
        lp_column(program, 0, HUGE_VAL);
        lp_entry(program, row, 1);
        lp_entry(program, LP_JOKER_ROW, 1);
    }
}

/*
 * Old meld ``b`` kept with some of its table jokers moved inside its meld (the search's
 * redeclared keep, moves.c): for each set of its jokers the capacity could free, its
 * forms again, each releasing the moved jokers (their piece rows, as a broken meld
 * does: the relaxation may then use them anywhere, or not at all), and taking a real
 * copy of the card of each joker in a set of them (``filled``: a moved joker's place
 * between places that stay takes one, ``moved_inside``; one at an end may be left
 * empty).  Every such set is a column, so the relaxation holds whichever the search
 * finds.  A group takes this form
 * only as three cards, one joker moving to its fourth suit.
 */
/* Of the jokers ``moved`` of run block ``b``, those whose places lie between places that
   stay (their real cards, or jokers that do not move): a real copy must fill each. */
static int moved_inside(const Problem *p, int b, int moved) {
    const Block *block = &p->blocks[b];
    uint64_t gone = 0;
    for (int i = 0; i < p->njokers; i++) {
        if (!((moved >> i) & 1)) continue;
        int rank = p->joker_cards[i] / 4 + 1;
        gone |= (uint64_t)1 << (rank == 1 && block->last == 14 ? 14 : rank);
    }
    int first = block->first, last = block->last, inside = 0;
    while (first <= last && (gone >> first) & 1) first++;
    while (last >= first && (gone >> last) & 1) last--;
    for (int i = 0; i < p->njokers; i++) {
        if (!((moved >> i) & 1)) continue;
        int rank = p->joker_cards[i] / 4 + 1, at = rank == 1 && block->last == 14 ? 14 : rank;
        if (at > first && at < last) inside |= 1 << i;
    }
    return inside;
}

static void lp_redeclared(Program *program, const Problem *p, int b, const int *present, int all_jokers) {
    const Block *block = &p->blocks[b];
    if (!all_jokers || !block->joker_mask || (!block->is_run && block->ncards != 3)) return;
    int entries = 0;
    for (int i = 0; i < p->njokers; i++)
        if (p->joker_blocks[i] == b && p->free[p->joker_cards[i]] > 0) entries |= 1 << i;
    for (int moved = entries; moved; moved = (moved - 1) & entries) {
        int inside = block->is_run ? moved_inside(p, b, moved) : moved;
        for (int filled = moved;; filled = (filled - 1) & moved) {
            if ((filled & inside) == inside) {
                LpExtra extra = {0, {0}, {0}};
                for (int i = 0; i < p->njokers; i++) {
                    if (!((moved >> i) & 1)) continue;
                    extra.row[extra.n] = NKINDS + 1 + p->nblocks + i;
                    extra.value[extra.n++] = -1;
                    if (!((filled >> i) & 1)) continue;
                    extra.row[extra.n] = p->joker_cards[i];
                    extra.value[extra.n++] = 1;
                }
                if (block->is_run || extra.n == 2) lp_kept_forms(program, p, b, present, all_jokers, &extra);
            }
            if (!filled) break;
        }
    }
}

/* Old melds: broken, or kept in one of their forms; their table jokers, each a card or
   (where the capacity lets it) a wildcard. */
static void lp_old_melds(Program *program, const Problem *p, const int *present, int all_jokers) {
    int piece_row0 = NKINDS + 1 + p->nblocks;
    for (int b = 0; b < p->nblocks; b++) {
        const Block *block = &p->blocks[b];
        lp_column(program, 1, HUGE_VAL);
        lp_entry(program, NKINDS + 1 + b, 1);
        for (int i = 0; i < block->ncards; i++) {
            int k = block->cards[i];
            if ((block->joker_mask >> k) & 1) continue;
            lp_entry(program, k, -1);
        }
        for (int i = 0; i < p->njokers; i++)
            if (p->joker_blocks[i] == b) lp_entry(program, piece_row0 + i, -1);
        lp_kept_forms(program, p, b, present, all_jokers, NULL);
        lp_redeclared(program, p, b, present, all_jokers);
    }
    for (int i = 0; i < p->njokers; i++) {
        lp_column(program, 0, HUGE_VAL);
        lp_entry(program, p->joker_cards[i], -1);
        lp_entry(program, piece_row0 + i, 1);
        /* A wildcard only where this search's freeing capacity lets it be one: with none
           for its card it can only ever stay locked. */
        if (!all_jokers || p->free[p->joker_cards[i]] == 0) continue;
        lp_column(program, 0, HUGE_VAL);
        lp_entry(program, LP_JOKER_ROW, -1);
        lp_entry(program, piece_row0 + i, 1);
    }
}

/* The rows of the root state ``root``, and the program passed to its solver object;
   returns whether HiGHS took it. */
static int lp_pass(LpBound *lp, const Problem *p, Program *program, const State *root, int all_jokers) {
    int nrows = NKINDS + 1 + p->nblocks + p->njokers;
    int piece_row0 = NKINDS + 1 + p->nblocks;
    double row_lower[LP_MAX_ROWS], row_upper[LP_MAX_ROWS];
    for (int k = 0; k < NKINDS; k++) row_lower[k] = row_upper[k] = mand_of(root, k);
    row_lower[LP_JOKER_ROW] = row_upper[LP_JOKER_ROW] = all_jokers ? wild_of(root) : 0;
    for (int b = 0; b < p->nblocks; b++) row_lower[NKINDS + 1 + b] = row_upper[NKINDS + 1 + b] = 1;
    for (int i = 0; i < p->njokers; i++) {
        row_lower[piece_row0 + i] = -HUGE_VAL;
        row_upper[piece_row0 + i] = 0;
    }
    for (int r = 0; r < nrows; r++) program->rhs[r] = row_upper[r];
    void *highs = program_solver(lp, program);
    if (lp->library->pass_lp(highs, program->ncols, nrows, program->nnz, HIGHS_COLWISE, HIGHS_MINIMIZE, 0,
                             program->cost, program->lower, program->upper, row_lower, row_upper, program->start,
                             program->index, program->value) < 0)
        return 0;
    program->nrows = nrows;
    return 1;
}

/*
 * Builds and solves the program for the root state ``root`` into ``out``: with
 * ``wildcards``, the program above; without, the one of the states whose jokers are
 * settled (no column holds a joker, and every table joker is a card).  The program
 * stays loaded in its solver object for re-solves (``lp_resolve``).  Returns what
 * ``lp_read`` does, or 0 (no library, three jokers or more, a program too big).
 */
static int lp_solve(LpBound *lp, const Problem *p, const State *root, int wildcards, Prices *out) {
    Program *program = &lp->programs[wildcards ? 0 : 1];
    program->ready = 0;
    if (!lp->library || lp_solvers_ready(lp) != 0) return 0;
    int all_jokers = jokers_of(root) + wild_of(root) + p->njokers;
    if (all_jokers > 2) return 0;
    if (!wildcards) all_jokers = 0;
    for (int k = 0; k <= NKINDS; k++) program->hand_column[k] = -1;
    int present[NKINDS];
    for (int k = 0; k < NKINDS; k++) present[k] = mand_of(root, k) + opt_of(root, k) + p->nholding[k] > 0;
    program->ncols = program->nnz = program->overflow = 0;
    lp_new_melds(program, p, present, all_jokers);
    lp_hand(program, p, root, all_jokers);
    lp_old_melds(program, p, present, all_jokers);
    if (program->overflow) return 0;
    program->start[program->ncols] = program->nnz;
    if (!lp_pass(lp, p, program, root, all_jokers)) return 0;
    int found = lp_read(lp, p, program, out);
    program->ready = found != 0;
    return found;
}

/*
 * Runs the program's solver object and reads its prices into ``out``.  Returns 1 when
 * the prices can be used, -1 when the program has no solution (then neither has the
 * state it was set for: it is a relaxation), 0 otherwise (not solved in time, or prices
 * that fail the check).
 */
static int lp_read(LpBound *lp, const Problem *p, Program *program, Prices *out) {
    const LpLibrary *library = lp->library;
    void *highs = program_solver(lp, program);
    library->zero_clocks(highs); /* the time limit counts from here, not from the first run */
    if (library->run(highs) < 0) return 0;
    int status = library->model_status(highs);
    if (status == HIGHS_INFEASIBLE) return lp_infeasible_proved(lp, p, program, highs) ? -1 : 0;
    if (status != HIGHS_OPTIMAL) return 0;
    double *col_value = lp->col_value, *col_dual = lp->col_dual;
    double row_value[LP_MAX_ROWS], row_dual[LP_MAX_ROWS];
    if (library->get_solution(highs, col_value, col_dual, row_value, row_dual) < 0) return 0;
    /* The check: no column without an upper bound may have a negative reduced cost, and
       the rows "at most" need prices of at most 0 (their slack is such a column). */
    for (int c = 0; c < program->ncols; c++) {
        if (program->upper[c] != HUGE_VAL) continue;
        double reduced = program->cost[c];
        for (int e = program->start[c]; e < program->start[c + 1]; e++)
            reduced -= program->value[e] * row_dual[program->index[e]];
        if (!(reduced >= -LP_TOLERANCE)) return 0; /* NaN fails too */
    }
    for (int r = 0; r < program->nrows; r++)
        if (!isfinite(row_dual[r])) return 0;
    for (int i = 0; i < p->njokers; i++)
        if (row_dual[NKINDS + 1 + p->nblocks + i] > LP_TOLERANCE) return 0;
    for (int k = 0; k <= NKINDS; k++) out->y[k] = row_dual[k];
    for (int k = 0; k < NKINDS; k++) {
        double whole = (double)p->weight * (double)p->card_cost[k];
        out->y_optional[k] = whole < out->y[k] ? whole : out->y[k];
    }
    double joker_whole = (double)p->weight * (double)p->joker_cost;
    out->y_optional[NKINDS] = joker_whole < out->y[NKINDS] ? joker_whole : out->y[NKINDS];
    for (int b = 0; b < p->nblocks; b++) out->y_block[b] = row_dual[NKINDS + 1 + b];
    out->settled = program == &lp->programs[1];
    return 1;
}

/* The program to re-solve for state ``s``: the second for a settled state (where it
   was solved), else the first. */
Program *resolve_program(LpBound *lp, const Problem *p, const State *s) {
    return &lp->programs[jokers_settled(p, s) && lp->programs[1].ready ? 1 : 0];
}

/*
 * Re-solves ``program`` (``resolve_program``) for state ``s`` from its last basis, into
 * ``out``.  Only the right-hand sides and the hand columns' bounds differ from the
 * root's, so the columns and the check are the same and the dual simplex starts from
 * where it stopped (a tenth of a cold solve).  Returns as ``lp_read``.
 */
int lp_resolve(LpBound *lp, const Problem *p, Program *program, const State *s, Prices *out) {
    if (!program->ready) return 0;
    void *highs = program_solver(lp, program);
    double lower[NKINDS + 1 + MAXBLOCKS], upper[NKINDS + 1 + MAXBLOCKS];
    for (int k = 0; k < NKINDS; k++) lower[k] = upper[k] = mand_of(s, k);
    lower[LP_JOKER_ROW] = upper[LP_JOKER_ROW] = program == &lp->programs[0] ? wild_of(s) : 0;
    for (int b = 0; b < p->nblocks; b++) lower[NKINDS + 1 + b] = upper[NKINDS + 1 + b] = (double)((s->mask >> b) & 1);
    if (lp->library->change_rows(highs, 0, NKINDS + p->nblocks, lower, upper) < 0) return 0;
    for (int r = 0; r <= NKINDS + p->nblocks; r++) program->rhs[r] = upper[r];
    for (int k = 0; k <= NKINDS; k++) {
        int c = program->hand_column[k];
        if (c < 0) continue;
        double least = 0, most = k < NKINDS ? opt_of(s, k) : jokers_of(s);
        if (lp->library->change_cols(highs, c, c, &least, &most) < 0) return 0;
        program->upper[c] = most;
    }
    return lp_read(lp, p, program, out);
}

/* The prices of both programs for the root state ``root`` (the second only where the
   position has a joker); returns whether the first are in use. */
int lp_prices(LpBound *lp, const Problem *p, const State *root) {
    lp->use_duals = lp_solve(lp, p, root, 1, &lp->prices) > 0;
    lp->programs[1].ready = 0;
    lp->use_settled = lp->use_duals && p->njokers + jokers_of(root) + wild_of(root) > 0 &&
                      lp_solve(lp, p, root, 0, &lp->settled) > 0;
    return lp->use_duals;
}

/* The bound of prices ``p`` on the cost of the rest of state ``s`` (see the header). */
int64_t lp_bound_by(const Problem *problem, const State *s, const Prices *p) {
    double total = 0;
    for (uint64_t m = loose_cards(s); m; m &= m - 1) {
        int k = __builtin_ctzll(m);
        total += mand_of(s, k) * p->y[k] + opt_of(s, k) * p->y_optional[k];
    }
    for (uint64_t m = s->mask; m; m &= m - 1) total += p->y_block[__builtin_ctzll(m)];
    total += jokers_of(s) * p->y_optional[NKINDS] + wild_of(s) * p->y[NKINDS];
    total -= 1e-4;
    if (total <= 0) return 0;
    int64_t bound = (int64_t)total;
    if ((double)bound < total) bound++;
    /* The cost is W * points + melds broken, the breaks at most the intact melds (fewer
       than W): so the points are at least (total - intact) / W, a whole number, which
       can lift the bound to the next multiple of W. */
    double points = (total - (double)__builtin_popcountll(s->mask)) / (double)problem->weight;
    if (points > 0) {
        int64_t whole = (int64_t)points;
        if ((double)whole < points) whole++;
        if (whole * problem->weight > bound) bound = whole * problem->weight;
    }
    return bound;
}

/* The prices' bound on the cost of the rest of state ``s``: the first program's, the
   larger of both where the state's jokers are settled, and the larger with the prices
   re-solved above it (``local``; any prices that pass the check bound every state
   their program covers, wherever they were solved). */
int64_t lp_bound(LpBound *lp, const Problem *p, const State *s, const Prices *local) {
    int64_t bound = lp_bound_by(p, s, &lp->prices);
    int settled = jokers_settled(p, s);
    if (lp->use_settled && settled) {
        int64_t by_settled = lp_bound_by(p, s, &lp->settled);
        if (by_settled > bound) {
            bound = by_settled;
            lp->settled_raised++;
        }
    }
    if (local && (settled || !local->settled)) {
        int64_t by_local = lp_bound_by(p, s, local);
        if (by_local > bound) bound = by_local;
    }
    return bound;
}
