/*
 * What the points program (_points.c) offers other C modules of the fast path, through
 * the capsule ``solver.fastpath._points._api``: the fewest points a set of cards can
 * keep in the hand, for the search's bound on a state (the _search module).  The
 * PointsApi lives in the module's state, as long as the module.
 */
#ifndef POINTS_API_H
#define POINTS_API_H
#include <stdint.h>

#define POINTS_API_CAPSULE "solver.fastpath._points._api"

typedef struct PointsApi {
    /* The fewest points the hand copies ``hand`` (per card index) can keep while every
       table copy ``table`` is laid in legal melds, no jokers: below ``limit``, else -1
       (none below it, or no layout at all); -2 past ``budget`` states, or when no
       memory is left for it.  ``api`` is the PointsApi it is called through.  Callable
       without the GIL, from any thread, several at once (each call evaluates in a
       context of its own, from the pool ``owner`` keeps). */
    int64_t (*fewest)(const struct PointsApi *api, int ace_high, const int *table, const int *hand,
                      const int *points, int64_t limit, long budget);
    void *owner; /* the module state that holds the context pool */
} PointsApi;

#endif
