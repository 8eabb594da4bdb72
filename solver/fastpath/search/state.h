/*
 * The search's state and the problem it searches: what every file of the search shares.
 *
 * A state (``State``) is a pending partition problem: per card, how many mandatory
 * copies (a broken old meld's cards, forced hand cards) and how many optional ones
 * (hand copies) are still loose; which old melds are still intact blocks; and, in the
 * top bits of the last word, the hand jokers left, whether a hand piece was played, the
 * mandatory wildcards left, the opening value still needed and which table jokers were
 * freed.  See search.h for the method.
 */

#ifndef RUMMY_SEARCH_STATE_H
#define RUMMY_SEARCH_STATE_H

#include <stddef.h>
#include <stdint.h>

#define NKINDS 52
#define MAXBLOCKS 63
#define INF ((int64_t)1 << 60)
#define JOKER_FLAG 64   /* added to a card index in the output: a joker declared as that card */
#define LOCKED_FLAG 128 /* added to a card index in the output: a table joker kept in its old meld */
#define MAX_COST 1000000 /* the dearest card or joker a caller may give (points or 1 per card) */
#define MAX_JOKERS 3     /* table, hand and must-play jokers in all */
#define MAX_COPIES 3     /* copies of one card a state counts, mandatory and optional each */

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

/* The card at sequence position ``position`` (1..14, an ace at 1 or 14) of ``suit``. */
static inline int card_at(int position, int suit) { return ((position == 14 ? 1 : position) - 1) * 4 + suit; }

/* How many suits a 4-bit suit mask holds (a table: without -mpopcnt the builtin is a
   library call, and it was the search's third-hottest function). */
static inline int suits_in(int mask) {
    static const int count[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
    return count[mask & 15];
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

/* An old meld, intact or not, as the search holds it. */
typedef struct {
    int is_run;
    int suit, first, last; /* a run: suit, sequence positions first..last (1..14) */
    int rank, suits;       /* a group: rank and a bit mask of suits */
    int ncards;
    int cards[14];
    int key;
    uint64_t cards_mask;   /* a bit per card it holds */
    uint64_t joker_mask;   /* a bit per card a table joker in it stands for */
    uint64_t joker_places; /* a run's: a bit per position (1..14) a table joker fills */
    uint64_t nodes;        /* its cards as places (see ``places_of``), for the split into parts */
} Block;

/*
 * The problem: the position's blocks and their indexes, the costs and the rules of
 * this search.  Set once before the search (problem.c) and only read while it runs.
 */
typedef struct {
    int max_position;           /* 14 with ace-high, else 13 */
    int64_t weight;             /* W: the cost is primary * W + melds broken */
    int64_t card_cost[NKINDS];  /* cost of leaving one optional card */
    int64_t joker_cost;
    int nblocks;
    Block blocks[MAXBLOCKS];
    int holding[NKINDS][4]; /* blocks holding each card */
    int nholding[NKINDS];
    int runs_at[4][15][MAXBLOCKS]; /* run blocks by suit and first position */
    int nruns_at[4][15];
    int groups_at[14][8]; /* group blocks by rank */
    int ngroups_at[14];
    int runs_of[4][MAXBLOCKS]; /* run blocks by suit */
    int nruns_of[4];
    uint64_t windows[NKINDS][6]; /* the other two cards of each 3-card run through a card */
    int nwindows[NKINDS];
    int free[NKINDS];        /* table jokers declared as each card that may be freed */
    int joker_blocks[8];     /* the blocks holding table jokers (one entry per joker) */
    int joker_cards[8];      /* and the card each stands for */
    int njokers;
    int contested[MAXBLOCKS]; /* per block, its jokers that compete for their card's capacity */
    int value[NKINDS];        /* each card's value toward the opening */
    int max_value;            /* the dearest card's, what a joker may be worth */
    int total_jokers;         /* the search's jokers: table, hand and must-play ones */
} Problem;

/* How many table jokers standing for ``card`` state ``s`` freed.  A kept block's joker
   keeps its declaration, and so does one locked out of a broken block: neither uses
   any of the card's freeing capacity, so the state marks the freed jokers themselves. */
static inline int jokers_freed(const Problem *p, const State *s, int card) {
    int n = 0;
    for (int i = 0; i < p->njokers; i++)
        if (p->joker_cards[i] == card && (s->w[3] >> (FREED_SHIFT + i)) & 1) n++;
    return n;
}

/* Places: a card at position p (1..14, an ace at 1 and, with ace-high, at 14) of suit s
   is bit s * 16 + p of a 64-bit mask (see bounds.c's independent parts). */
static inline uint64_t places_of(const Problem *p, int card) {
    int rank = card / 4 + 1, suit = card % 4;
    uint64_t places = (uint64_t)1 << (suit * 16 + rank);
    if (rank == 1 && p->max_position == 14) places |= (uint64_t)1 << (suit * 16 + 14);
    return places;
}

/* Whether every joker is settled for good: none in the hand, none freed and unplaced,
   none in an intact block that breaking it could free. */
static inline int jokers_settled(const Problem *p, const State *s) {
    if (jokers_of(s) || wild_of(s)) return 0;
    for (int i = 0; i < p->njokers; i++)
        if ((s->mask >> p->joker_blocks[i]) & 1 && jokers_freed(p, s, p->joker_cards[i]) < p->free[p->joker_cards[i]])
            return 0;
    return 1;
}

#endif
