/*
 * What the points program (_points.c) offers other C modules of the fast path, through
 * the capsule ``solver.fastpath._points._api``: the fewest points a set of cards can
 * keep in the hand, for the search's bound on a state (see _search.c).
 */
#ifndef POINTS_API_H
#define POINTS_API_H
#include <stdint.h>

#define POINTS_API_CAPSULE "solver.fastpath._points._api"

typedef struct {
    /* The fewest points the hand copies ``hand`` (per card index) can keep while every
       table copy ``table`` is laid in legal melds, no jokers: below ``limit``, else -1
       (none below it, or no layout at all); -2 past ``budget`` states. */
    int64_t (*fewest)(int ace_high, const int *table, const int *hand, const int *points, int64_t limit,
                      long budget);
} PointsApi;

#endif
