/*
 * The problem a search solves: the old melds as blocks and the indexes the moves and
 * bounds look them up by, set once before the search starts.
 */

#include <string.h>

#include "search.h"

/* The 3-card runs through each card (an ace at either end with ace-high), as masks. */
static void set_windows(Problem *p) {
    for (int card = 0; card < NKINDS; card++) {
        int rank = card / 4 + 1, suit = card % 4;
        p->nwindows[card] = 0;
        for (int at = rank; at <= (rank == 1 ? p->max_position : rank); at += 13) {
            for (int first = at - 2; first <= at; first++) {
                if (first < 1 || first + 2 > p->max_position) continue;
                uint64_t others = 0;
                for (int t = first; t <= first + 2; t++)
                    if (t != at) others |= (uint64_t)1 << card_at(t, suit);
                p->windows[card][p->nwindows[card]++] = others;
            }
        }
    }
}

/* A problem with no blocks yet: its indexes empty, its windows set. */
void problem_start(Problem *p, int ace_high) {
    p->max_position = ace_high ? 14 : 13;
    p->nblocks = 0;
    p->njokers = 0;
    set_windows(p);
    memset(p->nholding, 0, sizeof(p->nholding));
    memset(p->nruns_at, 0, sizeof(p->nruns_at));
    memset(p->ngroups_at, 0, sizeof(p->ngroups_at));
    memset(p->nruns_of, 0, sizeof(p->nruns_of));
}

/* Block ``block`` (the problem's entry ``index``) as a run of ``suit`` from ``first`` to
   ``last``, listed by suit and start; 0, or -1 when it is not a run the search holds. */
static int set_run(Problem *p, Block *block, int index, int suit, int first, int last) {
    block->suit = suit;
    block->first = first;
    block->last = last;
    if (suit < 0 || suit > 3 || first < 1 || last > p->max_position || last - first + 1 < 3) return -1;
    for (int at = first; at <= last; at++) block->cards[block->ncards++] = card_at(at, suit);
    if (p->nruns_at[suit][first] >= MAXBLOCKS) return -1;
    p->runs_at[suit][first][p->nruns_at[suit][first]++] = index;
    p->runs_of[suit][p->nruns_of[suit]++] = index;
    return 0;
}

/* The same for a group of ``rank`` with the suits of mask ``suits``. */
static int set_group(Problem *p, Block *block, int index, int rank, int suits) {
    block->rank = rank;
    block->suits = suits;
    if (rank < 1 || rank > 13 || suits <= 0 || suits > 15) return -1;
    for (int suit = 0; suit < 4; suit++)
        if ((suits >> suit) & 1) block->cards[block->ncards++] = (rank - 1) * 4 + suit;
    if (block->ncards < 3 || p->ngroups_at[rank] >= 8) return -1;
    p->groups_at[rank][p->ngroups_at[rank]++] = index;
    return 0;
}

/* The block's cards: its key, its table jokers (listed), the blocks holding each card. */
static int set_cards(Problem *p, Block *block, int index, unsigned long long jokers) {
    block->key = NKINDS;
    for (int i = 0; i < block->ncards; i++) {
        int card = block->cards[i];
        block->cards_mask |= (uint64_t)1 << card;
        if ((jokers >> card) & 1) {
            if (p->njokers >= MAX_JOKERS) return -1;
            p->joker_blocks[p->njokers] = index;
            p->joker_cards[p->njokers++] = card;
        }
        if (card < block->key) block->key = card;
        int seen = 0;
        for (int j = 0; j < p->nholding[card]; j++)
            if (p->holding[card][j] == index) seen = 1;
        if (!seen) {
            if (p->nholding[card] >= 4) return -1;
            p->holding[card][p->nholding[card]++] = index;
        }
    }
    return (jokers & ~block->cards_mask) ? -1 : 0;
}

/*
 * Adds an old meld: a run (``is_run``; suit ``a``, positions ``b``..``c``) or a group
 * (rank ``a``, suit mask ``b``), with a bit per card a table joker in it stands for.
 * Returns 0, or -1 when it is not a meld the search can hold.
 */
int problem_add_block(Problem *p, int is_run, int a, int b, int c, unsigned long long jokers) {
    if (p->nblocks >= MAXBLOCKS) return -1;
    int index = p->nblocks;
    Block *block = &p->blocks[index];
    memset(block, 0, sizeof(*block));
    block->is_run = is_run;
    if ((is_run ? set_run(p, block, index, a, b, c) : set_group(p, block, index, a, b)) != 0) return -1;
    if (set_cards(p, block, index, jokers) != 0) return -1;
    for (int i = 0; i < block->ncards; i++) block->nodes |= places_of(p, block->cards[i]);
    block->joker_mask = jokers;
    block->joker_places = 0;
    if (is_run) {
        /* A run from one ace to the other holds the ace's card twice: a joker standing
           for it could be either (the caller leaves such melds to CP-SAT). */
        if (b == 1 && c == 14 && (jokers >> card_at(1, a)) & 1) return -1;
        for (int at = b; at <= c; at++)
            if ((jokers >> card_at(at, a)) & 1) block->joker_places |= (uint64_t)1 << at;
    }
    p->nblocks++;
    return 0;
}

/* After the blocks, the costs, ``free`` and ``value``: the rest of the problem. */
void problem_finish(Problem *p, int jokers, int wild, int64_t joker_cost) {
    p->max_value = 0;
    for (int k = 0; k < NKINDS; k++)
        if (p->value[k] > p->max_value) p->max_value = p->value[k];
    p->total_jokers = p->njokers + wild + jokers;
    memset(p->contested, 0, sizeof(p->contested));
    for (int i = 0; i < p->njokers; i++) {
        int card = p->joker_cards[i], declared = 0;
        for (int j = 0; j < p->njokers; j++) declared += p->joker_cards[j] == card;
        if (p->free[card] > 0 && p->free[card] < declared) p->contested[p->joker_blocks[i]] |= 1 << i;
    }
    p->weight = p->nblocks + 1;
    p->joker_cost = joker_cost;
}
