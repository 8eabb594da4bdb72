/*
 * The search's second lower bound: prices from the linear relaxation of the position.
 *
 * Included by _search.c after its state, blocks, globals and loose_cards (one
 * translation unit).
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

#include <math.h>
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

typedef int HighsIntT; /* HiGHS's HighsInt as OR-Tools builds it: checked at load */

typedef void *(*highs_create_fn)(void);
typedef void (*highs_destroy_fn)(void *);
typedef HighsIntT (*highs_set_bool_fn)(void *, const char *, HighsIntT);
typedef HighsIntT (*highs_set_string_fn)(void *, const char *, const char *);
typedef HighsIntT (*highs_set_int_fn)(void *, const char *, HighsIntT);
typedef HighsIntT (*highs_set_double_fn)(void *, const char *, double);
typedef HighsIntT (*highs_pass_lp_fn)(void *, HighsIntT, HighsIntT, HighsIntT, HighsIntT, HighsIntT, double,
                                      const double *, const double *, const double *, const double *,
                                      const double *, const HighsIntT *, const HighsIntT *, const double *);
typedef HighsIntT (*highs_run_fn)(void *);
typedef HighsIntT (*highs_zero_clocks_fn)(const void *);
typedef HighsIntT (*highs_model_status_fn)(const void *);
typedef HighsIntT (*highs_get_solution_fn)(const void *, double *, double *, double *, double *);
typedef HighsIntT (*highs_sizeof_int_fn)(const void *);
typedef HighsIntT (*highs_change_bounds_fn)(void *, HighsIntT, HighsIntT, const double *, const double *);
typedef HighsIntT (*highs_get_dual_ray_fn)(const void *, HighsIntT *, double *);

static struct {
    void *library;
    void *highs;   /* the solver object of the first program */
    void *settled; /* and of the second (each keeps its program loaded for re-solves) */
    highs_create_fn create;
    highs_destroy_fn destroy;
    highs_set_bool_fn set_bool;
    highs_set_string_fn set_string;
    highs_set_int_fn set_int;
    highs_set_double_fn set_double;
    highs_pass_lp_fn pass_lp;
    highs_run_fn run;
    highs_zero_clocks_fn zero_clocks;
    highs_model_status_fn model_status;
    highs_get_solution_fn get_solution;
    highs_change_bounds_fn change_rows, change_cols; /* for re-solves */
    highs_get_dual_ray_fn get_dual_ray; /* to check a claim of no solution (NULL: never trusted) */
} g_highs;

#define HIGHS_OPTIMAL 7   /* kHighsModelStatusOptimal */
#define HIGHS_INFEASIBLE 8 /* kHighsModelStatusInfeasible */
#define HIGHS_COLWISE 1   /* kHighsMatrixFormatColwise */
#define HIGHS_MINIMIZE 1  /* kHighsObjSenseMinimize */
#define LP_MAX_COLS 8192
#define LP_MAX_NZ 65536
#define LP_MAX_ROWS (NKINDS + 1 + MAXBLOCKS + 3)
#define LP_JOKER_ROW NKINDS
#define LP_TOLERANCE 1e-7 /* HiGHS's own dual feasibility tolerance; a play uses at most
                             about 120 columns, so the bound errs by at most 1.2e-5, well
                             within the 1e-4 it gives away before rounding up */
#define LP_TIME_LIMIT 0.05 /* seconds */

/* Opens HiGHS from ``path`` (once); returns 0, or -1 with a Python error set. */
static int lp_load(const char *path) {
    if (g_highs.highs) return 0;
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        PyErr_Format(PyExc_OSError, "cannot open the LP library %s: %s", path, dlerror());
        return -1;
    }
#define LP_SYMBOL(field, type, name)                                                                           \
    g_highs.field = (type)dlsym(library, name);                                                                \
    if (!g_highs.field) {                                                                                      \
        dlclose(library);                                                                                      \
        PyErr_Format(PyExc_OSError, "the LP library %s has no %s", path, name);                                \
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
    g_highs.get_dual_ray = (highs_get_dual_ray_fn)dlsym(library, "Highs_getDualRay");
    highs_sizeof_int_fn sizeof_int = (highs_sizeof_int_fn)dlsym(library, "Highs_getSizeofHighsInt");
    void *highs = g_highs.create(), *settled = g_highs.create();
    if (!sizeof_int || !highs || !settled || sizeof_int(highs) != (HighsIntT)sizeof(HighsIntT)) {
        if (highs) g_highs.destroy(highs);
        if (settled) g_highs.destroy(settled);
        dlclose(library);
        PyErr_Format(PyExc_OSError, "the LP library %s is not a HiGHS this module can call", path);
        return -1;
    }
    void *objects[2] = {highs, settled};
    for (int i = 0; i < 2; i++) {
        g_highs.set_bool(objects[i], "output_flag", 0);
        g_highs.set_string(objects[i], "presolve", "off");
        g_highs.set_string(objects[i], "solver", "simplex");
        /* One thread: no worker threads that a forked process (a pool worker) would lose. */
        g_highs.set_int(objects[i], "threads", 1);
        g_highs.set_string(objects[i], "parallel", "off");
        /* A guard: a program that is not solved in this time gives no prices (the search
           goes on without them); these take about a millisecond. */
        g_highs.set_double(objects[i], "time_limit", LP_TIME_LIMIT);
    }
    g_highs.library = library;
    g_highs.highs = highs;
    g_highs.settled = settled;
    return 0;
}

/* A program: its columns, and where the re-solves change it. */
typedef struct {
    int ncols, nnz;
    double cost[LP_MAX_COLS], lower[LP_MAX_COLS], upper[LP_MAX_COLS];
    HighsIntT start[LP_MAX_COLS + 1], index[LP_MAX_NZ];
    double value[LP_MAX_NZ];
    int overflow;
    int nrows;
    double rhs[LP_MAX_ROWS];     /* the equality rows' right-hand sides, as last set */
    int hand_column[NKINDS + 1]; /* each card's "hand copies played" column, and the hand
                                    jokers' (at NKINDS), or -1 */
    int ready;                   /* solved for this search's root: loaded for re-solves */
} Program;

/* The first program (with wildcards) and the second (settled states, without). */
static Program g_programs[2];

/* The solver object that holds ``program``. */
static inline void *program_solver(const Program *program) {
    return program == &g_programs[0] ? g_highs.highs : g_highs.settled;
}
static Program *g_building = &g_programs[0]; /* the one lp_column and lp_entry add to */
#define g_lp (*g_building)

static void lp_column(double cost, double upper) {
    if (g_lp.ncols >= LP_MAX_COLS) {
        g_lp.overflow = 1;
        return;
    }
    g_lp.cost[g_lp.ncols] = cost;
    g_lp.lower[g_lp.ncols] = 0;
    g_lp.upper[g_lp.ncols] = upper;
    g_lp.start[g_lp.ncols] = g_lp.nnz;
    g_lp.ncols++;
}

static void lp_entry(int row, double value) {
    if (g_lp.overflow) return;
    /* A row named twice in one column (an ace at both ends of a run) adds up: HiGHS
       refuses a matrix with repeated entries. */
    for (int e = g_lp.start[g_lp.ncols - 1]; e < g_lp.nnz; e++)
        if (g_lp.index[e] == row) {
            g_lp.value[e] += value;
            return;
        }
    if (g_lp.nnz >= LP_MAX_NZ) {
        g_lp.overflow = 1;
        return;
    }
    g_lp.index[g_lp.nnz] = row;
    g_lp.value[g_lp.nnz] = value;
    g_lp.nnz++;
}

/* Prices: y per card row and for the joker row, per old meld. */
typedef struct {
    double y[NKINDS + 1];
    double y_optional[NKINDS + 1]; /* min(W * cost, y): an optional copy's share */
    double y_block[MAXBLOCKS];
    int settled; /* from the second program: they bound settled states only */
} Prices;

/* The program's prices, in use when g_use_duals; and those of the program without
   wildcards, in use when g_use_settled, for the states whose jokers are settled. */
static int g_use_duals, g_use_settled;
static Prices g_prices, g_settled;

/* The prices of the state being expanded, re-solved for it or for the nearest state
   above it that was (see ``solve``), or NULL: they bound its descendants too. */
static const Prices *g_local;

/* A run's card at each of ``count`` places from ``first`` of ``suit``, with the places in
   ``joker_places`` (bits from 0) held by jokers: a column when every real card is
   present.  ``block_row`` >= 0: the run is that old meld kept, grown by these places. */
static void lp_run_places(const int *places, int count, int suit, int joker_places, const int *present,
                          int block_row) {
    int jokers = 0;
    for (int i = 0; i < count; i++) {
        if ((joker_places >> i) & 1) jokers++;
        else if (!present[card_at(places[i], suit)]) return;
    }
    lp_column(0, HUGE_VAL);
    if (block_row >= 0) lp_entry(block_row, 1);
    for (int i = 0; i < count; i++)
        if (!((joker_places >> i) & 1)) lp_entry(card_at(places[i], suit), 1);
    if (jokers) lp_entry(LP_JOKER_ROW, jokers);
}

/* Every way of filling ``count`` places with real cards and up to ``max_jokers`` jokers
   (at least one real card for a new meld: ``block_row`` < 0). */
static void lp_run_fills(const int *places, int count, int suit, int max_jokers, const int *present, int block_row) {
    for (int mask = 0; mask < (1 << count); mask++) {
        int jokers = suits_in(mask & 15) + suits_in((mask >> 4) & 15);
        if (jokers > max_jokers || (block_row < 0 && jokers == count)) continue;
        lp_run_places(places, count, suit, mask, present, block_row);
    }
}

static int lp_read(Program *program, Prices *out);

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
static int lp_infeasible_proved(const Program *program, void *highs) {
    static double ray[LP_MAX_ROWS];
    HighsIntT has_ray = 0;
    if (!g_highs.get_dual_ray || g_highs.get_dual_ray(highs, &has_ray, ray) < 0 || !has_ray) return 0;
    int pieces = NKINDS + 1 + g_nblocks; /* the "at most 0" rows, from here on */
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

/*
 * Builds and solves the program for the root state ``root`` into ``out``: with
 * ``wildcards``, the program above; without, the one of the states whose jokers are
 * settled (no column holds a joker, and every table joker is a card).  The program
 * stays loaded in its solver object for re-solves (``lp_resolve``).  Returns what
 * ``lp_read`` does, or 0 (no library, three jokers or more, a program too big).
 */
static int lp_solve(const State *root, int wildcards, Prices *out) {
    Program *program = &g_programs[wildcards ? 0 : 1];
    program->ready = 0;
    if (!g_highs.highs) return 0;
    int all_jokers = jokers_of(root) + wild_of(root) + g_njokers;
    if (all_jokers > 2) return 0;
    if (!wildcards) all_jokers = 0;
    g_building = program;
    for (int k = 0; k <= NKINDS; k++) program->hand_column[k] = -1;
    int present[NKINDS];
    for (int k = 0; k < NKINDS; k++) present[k] = mand_of(root, k) + opt_of(root, k) + g_nholding[k] > 0;
    int nrows = NKINDS + 1 + g_nblocks + g_njokers;
    int piece_row0 = NKINDS + 1 + g_nblocks;
    g_lp.ncols = g_lp.nnz = g_lp.overflow = 0;
    /* New groups: real suits of a rank and jokers, 3 or 4 in all. */
    for (int rank = 1; rank <= 13; rank++) {
        for (int suits = 1; suits < 16; suits++) {
            int reals = suits_in(suits), ok = 1;
            for (int suit = 0; suit < 4; suit++)
                if ((suits >> suit) & 1 && !present[(rank - 1) * 4 + suit]) ok = 0;
            if (!ok) continue;
            for (int jokers = 0; jokers <= all_jokers; jokers++) {
                if (reals + jokers < 3 || reals + jokers > 4) continue;
                lp_column(0, HUGE_VAL);
                for (int suit = 0; suit < 4; suit++)
                    if ((suits >> suit) & 1) lp_entry((rank - 1) * 4 + suit, 1);
                if (jokers) lp_entry(LP_JOKER_ROW, jokers);
            }
        }
    }
    /* New runs of 3 to 5 places. */
    for (int suit = 0; suit < 4; suit++)
        for (int first = 1; first <= g_max_position - 2; first++)
            for (int length = 3; length <= 5 && first + length - 1 <= g_max_position; length++) {
                int places[5];
                for (int i = 0; i < length; i++) places[i] = first + i;
                lp_run_fills(places, length, suit, all_jokers, present, -1);
            }
    /* Hand copies played, and hand jokers. */
    for (int k = 0; k < NKINDS; k++) {
        if (!opt_of(root, k)) continue;
        program->hand_column[k] = g_lp.ncols;
        lp_column(-(double)g_weight * (double)g_card_cost[k], opt_of(root, k));
        lp_entry(k, -1);
    }
    if (all_jokers && jokers_of(root)) {
        program->hand_column[NKINDS] = g_lp.ncols;
        lp_column(-(double)g_weight * (double)g_joker_cost, jokers_of(root));
        lp_entry(LP_JOKER_ROW, -1);
    }
    /* Old melds: broken, or kept in one of their forms; their table jokers. */
    for (int b = 0; b < g_nblocks; b++) {
        const Block *block = &g_blocks[b];
        int row = NKINDS + 1 + b;
        lp_column(1, HUGE_VAL);
        lp_entry(row, 1);
        for (int i = 0; i < block->ncards; i++) {
            int k = block->cards[i];
            if ((block->joker_mask >> k) & 1) continue;
            lp_entry(k, -1);
        }
        for (int i = 0; i < g_njokers; i++)
            if (g_joker_blocks[i] == b) lp_entry(piece_row0 + i, -1);
        if (block->is_run) {
            for (int below = 0; below <= 2; below++)
                for (int above = 0; above <= 2; above++) {
                    if (block->first - below < 1 || block->last + above > g_max_position) continue;
                    int places[4], count = 0;
                    for (int p = block->first - below; p < block->first; p++) places[count++] = p;
                    for (int p = block->last + 1; p <= block->last + above; p++) places[count++] = p;
                    lp_run_fills(places, count, block->suit, all_jokers, present, row);
                }
        } else {
            lp_column(0, HUGE_VAL);
            lp_entry(row, 1);
            if (block->ncards == 3) {
                int missing = 0;
                while ((block->suits >> missing) & 1) missing++;
                int card = (block->rank - 1) * 4 + missing;
                if (present[card]) {
                    lp_column(0, HUGE_VAL);
                    lp_entry(row, 1);
                    lp_entry(card, 1);
                }
                if (all_jokers) {
                    lp_column(0, HUGE_VAL);
                    lp_entry(row, 1);
                    lp_entry(LP_JOKER_ROW, 1);
                }
            }
        }
    }
    for (int i = 0; i < g_njokers; i++) {
        lp_column(0, HUGE_VAL);
        lp_entry(g_joker_cards[i], -1);
        lp_entry(piece_row0 + i, 1);
        /* A wildcard only where this search's freeing capacity lets it be one: with none
           for its card it can only ever stay locked. */
        if (!all_jokers || g_free[g_joker_cards[i]] == 0) continue;
        lp_column(0, HUGE_VAL);
        lp_entry(LP_JOKER_ROW, -1);
        lp_entry(piece_row0 + i, 1);
    }
    if (g_lp.overflow) return 0;
    g_lp.start[g_lp.ncols] = g_lp.nnz;
    double row_lower[LP_MAX_ROWS], row_upper[LP_MAX_ROWS];
    for (int k = 0; k < NKINDS; k++) row_lower[k] = row_upper[k] = mand_of(root, k);
    row_lower[LP_JOKER_ROW] = row_upper[LP_JOKER_ROW] = all_jokers ? wild_of(root) : 0;
    for (int b = 0; b < g_nblocks; b++) row_lower[NKINDS + 1 + b] = row_upper[NKINDS + 1 + b] = 1;
    for (int i = 0; i < g_njokers; i++) {
        row_lower[piece_row0 + i] = -HUGE_VAL;
        row_upper[piece_row0 + i] = 0;
    }
    for (int r = 0; r < nrows; r++) program->rhs[r] = row_upper[r];
    void *highs = program_solver(program);
    if (g_highs.pass_lp(highs, g_lp.ncols, nrows, g_lp.nnz, HIGHS_COLWISE, HIGHS_MINIMIZE, 0, g_lp.cost, g_lp.lower,
                        g_lp.upper, row_lower, row_upper, g_lp.start, g_lp.index, g_lp.value) < 0)
        return 0;
    program->nrows = nrows;
    int found = lp_read(program, out);
    program->ready = found != 0;
    return found;
}

/*
 * Runs the program's solver object and reads its prices into ``out``.  Returns 1 when
 * the prices can be used, -1 when the program has no solution (then neither has the
 * state it was set for: it is a relaxation), 0 otherwise (not solved in time, or prices
 * that fail the check).
 */
static int lp_read(Program *program, Prices *out) {
    void *highs = program_solver(program);
    g_highs.zero_clocks(highs); /* the time limit counts from here, not from the first run */
    if (g_highs.run(highs) < 0) return 0;
    int status = g_highs.model_status(highs);
    if (status == HIGHS_INFEASIBLE) return lp_infeasible_proved(program, highs) ? -1 : 0;
    if (status != HIGHS_OPTIMAL) return 0;
    static double col_value[LP_MAX_COLS], col_dual[LP_MAX_COLS];
    double row_value[LP_MAX_ROWS], row_dual[LP_MAX_ROWS];
    if (g_highs.get_solution(highs, col_value, col_dual, row_value, row_dual) < 0) return 0;
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
    for (int i = 0; i < g_njokers; i++)
        if (row_dual[NKINDS + 1 + g_nblocks + i] > LP_TOLERANCE) return 0;
    for (int k = 0; k <= NKINDS; k++) out->y[k] = row_dual[k];
    for (int k = 0; k < NKINDS; k++) {
        double whole = (double)g_weight * (double)g_card_cost[k];
        out->y_optional[k] = whole < out->y[k] ? whole : out->y[k];
    }
    double joker_whole = (double)g_weight * (double)g_joker_cost;
    out->y_optional[NKINDS] = joker_whole < out->y[NKINDS] ? joker_whole : out->y[NKINDS];
    for (int b = 0; b < g_nblocks; b++) out->y_block[b] = row_dual[NKINDS + 1 + b];
    out->settled = program == &g_programs[1];
    return 1;
}

static int jokers_settled(const State *s);

/* The program to re-solve for state ``s``: the second for a settled state (where it
   was solved), else the first. */
static Program *resolve_program(const State *s) {
    return &g_programs[jokers_settled(s) && g_programs[1].ready ? 1 : 0];
}

/*
 * Re-solves ``program`` (``resolve_program``) for state ``s`` from its last basis, into
 * ``out``.  Only the right-hand sides and the hand columns' bounds differ from the
 * root's, so the columns and the check are the same and the dual simplex starts from
 * where it stopped (a tenth of a cold solve).  Returns as ``lp_read``.
 */
static int lp_resolve(Program *program, const State *s, Prices *out) {
    if (!program->ready) return 0;
    void *highs = program_solver(program);
    double lower[NKINDS + 1 + MAXBLOCKS], upper[NKINDS + 1 + MAXBLOCKS];
    for (int k = 0; k < NKINDS; k++) lower[k] = upper[k] = mand_of(s, k);
    lower[LP_JOKER_ROW] = upper[LP_JOKER_ROW] = program == &g_programs[0] ? wild_of(s) : 0;
    for (int b = 0; b < g_nblocks; b++) lower[NKINDS + 1 + b] = upper[NKINDS + 1 + b] = (double)((s->mask >> b) & 1);
    if (g_highs.change_rows(highs, 0, NKINDS + g_nblocks, lower, upper) < 0) return 0;
    for (int r = 0; r <= NKINDS + g_nblocks; r++) program->rhs[r] = upper[r];
    for (int k = 0; k <= NKINDS; k++) {
        int c = program->hand_column[k];
        if (c < 0) continue;
        double least = 0, most = k < NKINDS ? opt_of(s, k) : jokers_of(s);
        if (g_highs.change_cols(highs, c, c, &least, &most) < 0) return 0;
        program->upper[c] = most;
    }
    return lp_read(program, out);
}

/* The prices of both programs for the root state ``root`` (the second only where the
   position has a joker); returns whether the first are in use. */
static int lp_prices(const State *root) {
    g_use_duals = lp_solve(root, 1, &g_prices) > 0;
    g_programs[1].ready = 0;
    g_use_settled =
        g_use_duals && g_njokers + jokers_of(root) + wild_of(root) > 0 && lp_solve(root, 0, &g_settled) > 0;
    return g_use_duals;
}

/* The bound of prices ``p`` on the cost of the rest of state ``s`` (see the header). */
static int64_t lp_bound_by(const State *s, const Prices *p) {
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
    double points = (total - (double)__builtin_popcountll(s->mask)) / (double)g_weight;
    if (points > 0) {
        int64_t whole = (int64_t)points;
        if ((double)whole < points) whole++;
        if (whole * g_weight > bound) bound = whole * g_weight;
    }
    return bound;
}

/* The prices' bound on the cost of the rest of state ``s``: the first program's, the
   larger of both where the state's jokers are settled, and the larger with the prices
   re-solved above it (``g_local``; any prices that pass the check bound every state
   their program covers, wherever they were solved). */
static size_t g_settled_raised; /* state bounds the second program's prices raised */

static int64_t lp_bound(const State *s) {
    int64_t bound = lp_bound_by(s, &g_prices);
    int settled = jokers_settled(s);
    if (g_use_settled && settled) {
        int64_t by_settled = lp_bound_by(s, &g_settled);
        if (by_settled > bound) {
            bound = by_settled;
            g_settled_raised++;
        }
    }
    if (g_local && (settled || !g_local->settled)) {
        int64_t local = lp_bound_by(s, g_local);
        if (local > bound) bound = local;
    }
    return bound;
}
