/*
 * The search's memo: open addressing on the whole state (loose counts, intact blocks,
 * jokers left, the flags).  An entry holds a state's exact cost, or a lower bound when
 * a search below a smaller limit was cut (see solve.c).
 */

#include <stdlib.h>

#include "search.h"

#define MEMO_START 1024

static inline uint64_t mix(uint64_t h, uint64_t x) {
    h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h * 0xbf58476d1ce4e5b9ULL;
}

static inline size_t slot_of(const Search *S, const State *s) {
    uint64_t h = 0x2545f4914f6cdd1dULL;
    h = mix(h, s->w[0]);
    h = mix(h, s->w[1]);
    h = mix(h, s->w[2]);
    h = mix(h, s->w[3]);
    h = mix(h, s->mask);
    h ^= h >> 31;
    return (size_t)h & (S->capacity - 1);
}

static inline int same(const State *a, const State *b) {
    return a->w[0] == b->w[0] && a->w[1] == b->w[1] && a->w[2] == b->w[2] && a->w[3] == b->w[3] &&
           a->mask == b->mask;
}

/* The entry of state ``s``, or the empty slot where it goes. */
Entry *memo_find(Search *S, const State *s) {
    size_t i = slot_of(S, s);
    while (S->table[i].used) {
        if (same(&S->table[i].key, s)) return &S->table[i];
        i = (i + 1) & (S->capacity - 1);
    }
    return &S->table[i];
}

/* Doubles the table; 0, or -1 (the table as it was) when memory runs out. */
int memo_grow(Search *S) {
    size_t old_capacity = S->capacity;
    Entry *old = S->table;
    S->capacity *= 2;
    S->table = (Entry *)calloc(S->capacity, sizeof(Entry));
    if (!S->table) {
        S->table = old;
        S->capacity = old_capacity;
        return -1;
    }
    for (size_t i = 0; i < old_capacity; i++) {
        if (old[i].used) *memo_find(S, &old[i].key) = old[i];
    }
    free(old);
    return 0;
}

/* An empty memo for a new search; 0, or -1 when memory runs out. */
int memo_start(Search *S) {
    S->capacity = MEMO_START;
    S->count = 0;
    S->table = (Entry *)calloc(S->capacity, sizeof(Entry));
    return S->table ? 0 : -1;
}

void memo_end(Search *S) {
    free(S->table);
    S->table = NULL;
}
