/*
 * The search's second lower bound: prices from the linear relaxation of the position
 * (see lp_bound.c for the method).  Its state is one ``LpBound`` per search context;
 * HiGHS is opened once per process into an ``LpLibrary`` that the contexts share (its
 * functions only; each context has solver objects of its own).
 */

#ifndef RUMMY_LP_BOUND_H
#define RUMMY_LP_BOUND_H

#include <stddef.h>
#include <stdint.h>

#include "state.h"

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

/* HiGHS's functions, once its shared library is open (``lp_library_open``). */
typedef struct {
    void *library; /* the dlopen handle, NULL until opened */
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
} LpLibrary;

#define LP_MAX_COLS 8192
#define LP_MAX_NZ 65536
#define LP_MAX_ROWS (NKINDS + 1 + MAXBLOCKS + 3)
#define PRICES_POOL 512 /* re-solved prices a search keeps for its states' later rounds */

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

/* Prices: y per card row and for the joker row, per old meld. */
typedef struct {
    double y[NKINDS + 1];
    double y_optional[NKINDS + 1]; /* min(W * cost, y): an optional copy's share */
    double y_block[MAXBLOCKS];
    int settled; /* from the second program: they bound settled states only */
} Prices;

/* One search context's relaxation: its two programs and their HiGHS objects, the root's
   prices, the pool of re-solved prices, and the scratch arrays of a solve. */
typedef struct {
    const LpLibrary *library; /* NULL: no HiGHS, no prices */
    void *solvers[2];         /* the solver object of each program (created on first use) */
    Program programs[2];      /* the first program (with wildcards) and the second (settled states) */
    int use_duals, use_settled; /* whether ``prices`` and ``settled`` are in use */
    Prices prices, settled;
    size_t settled_raised; /* state bounds the second program's prices raised */
    Prices pool[PRICES_POOL], pool_spare;
    int npool;
    double ray[LP_MAX_ROWS], col_value[LP_MAX_COLS], col_dual[LP_MAX_COLS];
} LpBound;

/* Opens HiGHS from ``path`` into ``library``; 0, or -1 with a message in ``error``. */
int lp_library_open(LpLibrary *library, const char *path, char *error, size_t size);
void lp_library_close(LpLibrary *library);

/* A context's relaxation for a new search (``library`` may be NULL), and its end. */
void lp_start(LpBound *lp, const LpLibrary *library);
void lp_free_solvers(LpBound *lp);

/* The prices of both programs for the root state ``root``; returns whether the first are in use. */
int lp_prices(LpBound *lp, const Problem *p, const State *root);
/* The prices' bound on the cost of the rest of ``s`` (``local``: prices re-solved above it, or NULL). */
int64_t lp_bound(LpBound *lp, const Problem *p, const State *s, const Prices *local);
/* The bound of prices ``prices`` alone. */
int64_t lp_bound_by(const Problem *p, const State *s, const Prices *prices);
/* The program to re-solve for ``s``, and the re-solve into ``out`` (1 usable, -1 no solution, 0 neither). */
Program *resolve_program(LpBound *lp, const Problem *p, const State *s);
int lp_resolve(LpBound *lp, const Problem *p, Program *program, const State *s, Prices *out);

#endif
