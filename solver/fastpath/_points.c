/*
 * The fewest points a hand can keep after one play, by dynamic programming over the
 * card positions (after van Rijn, Takes and Vis, "The complexity of Rummikub
 * problems", 2015), for positions and many draws at once.
 *
 * Why it is exact.  In Manipulation Rummy and its cousins every old meld may be taken
 * apart, so the fewest points a hand can keep depend only on the cards: which legal
 * melds can hold every table card and which hand cards.  The old melds matter for the
 * tie-break (melds broken), which this program does not answer, and through the table
 * jokers, which it follows by RULES.md's counting rule (below).  With every card and
 * joker worth points, the least total is the best play's (or, when no hand piece can
 * be played, the hand's own points).
 *
 * The program runs over positions 1..13 (14 with ace-high: an ace may stand low, at
 * 1, or high, at 14).  A state between two positions holds, per suit, how many runs
 * are open with 1, with 2, and with 3 or more cards (each holds a piece at the position
 * just done, so a run of 1 or 2 must go on); the jokers still to place and how many
 * of them must be (freed table jokers); and the least points of the hand cards left in
 * the hand so far.  At each position and suit it
 * chooses how many of the runs of 3 or more go on, how many new runs start, how many
 * of these run places a joker fills, and how many real copies go into groups of the
 * position's rank.  The suits are done one after the other, then the groups: the
 * copies of a rank put in groups, no suit more than k times, fit in k groups of 3 or 4
 * different suits with j jokers exactly when 3k <= copies + j <= 4k (with at most two
 * jokers in all, every such group gets a real card).  Table copies must be placed;
 * hand copies left cost their points.
 *
 * Aces with ace-high.  At position 1 the copies of each suit's ace not placed low are
 * carried in the state to position 14 (table copies first placed low: the copies are
 * alike), where they are placed high or left.
 *
 * Table jokers.  A table joker declared X keeps standing for X (a table copy of X that
 * may go anywhere X fits), unless it is freed: then it is a wildcard that must be
 * played, and RULES.md's counting rule asks for as many real X on the final table as
 * jokers declared X that changed.  A start state is made for every subset of table
 * jokers freed; with f of the J jokers declared X freed, the table copies of X are the
 * real ones plus J - f, and the copies of X placed (locked jokers included) must reach
 * J, so that f of them are real.  Once that position is done only the joker counts
 * matter, so the joker's flag is dropped and states that differ only by it merge.
 * Hand jokers may be played or kept at their points.  A table joker whose card has no
 * real copy anywhere (table, hand, the draw) can never be freed: it is counted as a
 * table copy of its card from the start.
 *
 * A long run stopping where a new run of its suit starts would do as well going on
 * into it (one longer legal run holds the same cards), so that choice is not made.
 *
 * Limits: at most two jokers in all (hand, table and a drawn one), at most three
 * copies of a card, no opening rule (the caller checks).  An evaluation that makes
 * more than STATE_BUDGET states, or a layer past LAYER_ITEMS, answers "unknown" (the
 * caller asks another backend).  Jokers that may be played anywhere and aces that may
 * stand at both ends are what multiply the states (by about 10 and 7 on mid-game
 * Manipulation positions with two decks).
 *
 * State.  Everything an evaluation changes (its two layers, the saved states, its
 * counters and its input) is in a PointsContext passed to every function that needs
 * it; there is no mutable static state.  A call takes a context from the module's
 * small pool and gives it back, so calls from several threads (the evaluations run
 * without the GIL, and the search asks through the capsule without it) and a call made
 * while another is under way (a draw's __index__ may call again) each have their own.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_points_api.h"
#include "_read_counts.h"

#define NKINDS 52
#define MAX_JOKERS 2
#define MAX_COPIES 3
#define MAX_POINTS 1000000
#define LAYER_ITEMS (1 << 16)
#ifndef STATE_BUDGET
#define STATE_BUDGET 250000 /* states an evaluation may make (about 5 ms) before it gives up */
#endif
#define INDEX_SLOTS (1 << 17)
#define ANSWER_INFEASIBLE (-1)
#define ANSWER_UNKNOWN (-2)
#define PLAYED_CODE 100 /* a question 100 + k: the fewest points with a hand copy of card k played */

/* The state key, packed in 64 bits. */
#define RUN_BITS 9 /* per suit: runs open with 1, with 2, with 3+ cards (3 bits each) */
#define AVAIL_SHIFT 36 /* jokers still to place (hand jokers and those freed) */
#define GROUPED_SHIFT 38
#define MOST_SHIFT 42
#define CARRY_SHIFT 44 /* per suit: aces carried high, table copies (2 bits) and hand copies (2 bits) */
#define FREED_SHIFT 60 /* per table joker whose position is still ahead: whether it is freed */
#define REQUIRED_SHIFT 62 /* freed jokers still to place */
#define RUNS_MASK (((uint64_t)1 << 36) - 1)

typedef struct {
    uint64_t key;
    int64_t points;
} Item;

typedef struct {
    Item *items;
    uint32_t *slots; /* where each item sits in the index, to clear it fast */
    int32_t *index;  /* open addressing over items, -1 empty */
    int count;
} Layer;

/* The states after each position of the position as it is, which a draw of a card at
   a later position shares: its evaluation starts from there. */
typedef struct {
    Item *items;
    int count, capacity, ready;
} Snapshot;

/* Everything an evaluation changes (see "State" above).  A call takes one from the
   module's pool (pool_acquire) and gives it back (pool_release). */
typedef struct PointsContext {
    Layer layers[2];
    Snapshot snapshots[15];
    int snapshotting;  /* the evaluation under way saves its states */
    long states;       /* states made by the evaluation under way */
    long state_budget; /* and how many it may make */
#ifdef POINTS_STATS
    long long stat_states; /* built with -DPOINTS_STATS: states made, read by stats() */
#endif

    /* One evaluation's input. */
    int positions;           /* 13, or 14 with ace-high */
    int ace_high;
    int table[15][4];        /* real table copies per position (aces at 1) and suit */
    int hand[15][4];         /* hand copies */
    int64_t points[15][4];   /* what a hand copy left costs */
    int hand_jokers;
    int64_t joker_points;
    int njokers;             /* table jokers */
    int joker_position[MAX_JOKERS], joker_suit[MAX_JOKERS];

    struct PointsContext *next; /* the next one in the pool's free list */
} PointsContext;

static inline int run_field(uint64_t key, int suit, int which) {
    return (int)(key >> (suit * RUN_BITS + 3 * which)) & 7;
}
static inline int avail_of(uint64_t key) { return (int)(key >> AVAIL_SHIFT) & 3; }
static inline int required_of(uint64_t key) { return (int)(key >> REQUIRED_SHIFT) & 3; }
static inline int grouped_of(uint64_t key) { return (int)(key >> GROUPED_SHIFT) & 15; }
static inline int most_of(uint64_t key) { return (int)(key >> MOST_SHIFT) & 3; }
static inline int carried_table(uint64_t key, int suit) { return (int)(key >> (CARRY_SHIFT + 4 * suit)) & 3; }
static inline int carried_hand(uint64_t key, int suit) { return (int)(key >> (CARRY_SHIFT + 4 * suit + 2)) & 3; }
static inline int freed_of(uint64_t key) { return (int)(key >> FREED_SHIFT) & 3; }

/* The joker counts of a key after ``wild`` more jokers are placed (the required ones
   first: the jokers are alike). */
static inline uint64_t jokers_after(int avail, int required, int wild) {
    int still = required > wild ? required - wild : 0;
    return (uint64_t)(avail - wild) << AVAIL_SHIFT | (uint64_t)still << REQUIRED_SHIFT;
}

/* Frees ``ctx`` and all it holds (any part may be missing). */
static void context_free(PointsContext *ctx) {
    if (!ctx) return;
    for (int i = 0; i < 2; i++) {
        free(ctx->layers[i].items);
        free(ctx->layers[i].slots);
        free(ctx->layers[i].index);
    }
    for (int position = 0; position <= 14; position++) free(ctx->snapshots[position].items);
    free(ctx);
}

/* A new context, its layers empty and no states saved; NULL when any part cannot be
   allocated (the parts that could are freed).  Takes no Python. */
static PointsContext *context_new(void) {
    PointsContext *ctx = (PointsContext *)calloc(1, sizeof(PointsContext));
    if (!ctx) return NULL;
    for (int i = 0; i < 2; i++) {
        Layer *layer = &ctx->layers[i];
        layer->items = (Item *)malloc(sizeof(Item) * LAYER_ITEMS);
        layer->slots = (uint32_t *)malloc(sizeof(uint32_t) * LAYER_ITEMS);
        layer->index = (int32_t *)malloc(sizeof(int32_t) * INDEX_SLOTS);
        if (!layer->items || !layer->slots || !layer->index) {
            context_free(ctx);
            return NULL;
        }
        memset(layer->index, 0xff, sizeof(int32_t) * INDEX_SLOTS);
        layer->count = 0;
    }
    ctx->state_budget = STATE_BUDGET;
    return ctx;
}

static void layer_clear(Layer *layer) {
    for (int i = 0; i < layer->count; i++) layer->index[layer->slots[i]] = -1;
    layer->count = 0;
}

/* Keeps the least points per key; 0 when the layer is full. */
static int layer_add(PointsContext *ctx, Layer *layer, uint64_t key, int64_t points) {
    uint32_t slot = (uint32_t)((key * 0x9e3779b97f4a7c15ULL) >> (64 - 17));
    for (;;) {
        int32_t at = layer->index[slot];
        if (at < 0) break;
        if (layer->items[at].key == key) {
            if (points < layer->items[at].points) layer->items[at].points = points;
            return 1;
        }
        slot = (slot + 1) & (INDEX_SLOTS - 1);
    }
    if (layer->count >= LAYER_ITEMS || ++ctx->states > ctx->state_budget) return 0;
    layer->index[slot] = layer->count;
    layer->slots[layer->count] = slot;
    layer->items[layer->count].key = key;
    layer->items[layer->count].points = points;
    layer->count++;
#ifdef POINTS_STATS
    ctx->stat_states++;
#endif
    return 1;
}

/* Whether ``copies`` real copies of one rank, no suit more than ``most`` times, and
   ``jokers`` jokers make groups of 3 or 4 different suits. */
static int groups_fit(int copies, int most, int jokers) {
    int total = copies + jokers;
    if (total == 0) return 1;
    if (copies == 0) return 0;
    for (int k = most > 1 ? most : 1; 3 * k <= total; k++)
        if (total <= 4 * k) return 1;
    return 0;
}

/* Table jokers declared as the card at ``position`` (an ace: 1) and ``suit``, and how
   many of them the state frees. */
static void jokers_at(const PointsContext *ctx, uint64_t key, int position, int suit, int *declared, int *freed) {
    *declared = *freed = 0;
    int freed_mask = freed_of(key);
    for (int j = 0; j < ctx->njokers; j++) {
        if (ctx->joker_position[j] == position && ctx->joker_suit[j] == suit) {
            (*declared)++;
            if ((freed_mask >> j) & 1) (*freed)++;
        }
    }
}

/* Suit ``suit`` at ``position`` for every state of ``from`` into ``to``.  Returns 0
   when ``to`` overflows. */
static int step_suit(PointsContext *ctx, int position, int suit, const Layer *from, Layer *to, int64_t limit) {
    int shift = suit * RUN_BITS;
    int high = position == 14, low_ace = position == 1 && ctx->ace_high;
    int may_start = position + 2 <= ctx->positions; /* a run started here reaches 3 cards */
    int64_t unit = ctx->points[high ? 1 : position][suit];
    int card_position = high ? 1 : position;
    for (int i = 0; i < from->count; i++) {
        uint64_t key = from->items[i].key;
        int64_t points = from->items[i].points;
        int one = run_field(key, suit, 0), two = run_field(key, suit, 1), long_ = run_field(key, suit, 2);
        int avail = avail_of(key), required = required_of(key), grouped = grouped_of(key), most = most_of(key);
        int declared, freed;
        jokers_at(ctx, key, card_position, suit, &declared, &freed);
        int all_table = ctx->table[card_position][suit] + declared - freed;
        int all_hand = ctx->hand[card_position][suit];
        int table = all_table, hand = all_hand;
        if (high) {
            table = carried_table(key, suit);
            hand = carried_hand(key, suit);
        }
        uint64_t base = key & ~((uint64_t)511 << shift) & ~((uint64_t)3 << AVAIL_SHIFT) & ~((uint64_t)3 << REQUIRED_SHIFT) &
                        ~((uint64_t)15 << GROUPED_SHIFT) & ~((uint64_t)3 << MOST_SHIFT);
        if (low_ace || high) base &= ~((uint64_t)15 << (CARRY_SHIFT + 4 * suit)); /* set, or used up */
        for (int go_on = 0; go_on <= long_; go_on++) {
            int carried = one + two + go_on;
            for (int fresh = 0; carried + fresh <= table + hand + avail; fresh++) {
                /* A long run that stops where a new one of its suit starts would do as well
                   going on into it (one longer run holds the same cards). */
                if (fresh && (!may_start || go_on < long_)) break;
                int places = carried + fresh;
                if (two + go_on > 7 || fresh > 7) break;
                uint64_t runs = (uint64_t)fresh << shift | (uint64_t)one << (shift + 3) |
                                (uint64_t)(two + go_on) << (shift + 6);
                for (int wild = 0; wild <= places && wild <= avail; wild++) {
                    int real = places - wild;
                    for (int into_groups = 0; real + into_groups <= table + hand; into_groups++) {
                        if ((high && into_groups) || into_groups > 3) break;
                        int placed = real + into_groups;
                        uint64_t after = base | runs | jokers_after(avail, required, wild);
                        int group_copies = grouped + into_groups;
                        if (group_copies > 15) break;
                        after |= (uint64_t)group_copies << GROUPED_SHIFT;
                        after |= (uint64_t)(into_groups > most ? into_groups : most) << MOST_SHIFT;
                        int64_t total = points;
                        if (low_ace) {
                            /* The copies not placed low go on to position 14, table ones first. */
                            int left_table = table > placed ? table - placed : 0;
                            int left_hand = table + hand - placed - left_table;
                            after |= (uint64_t)(left_table | left_hand << 2) << (CARRY_SHIFT + 4 * suit);
                        } else {
                            if (placed < table) continue;
                            total += (int64_t)(table + hand - placed) * unit;
                            if (total >= limit) continue;
                            if (freed) {
                                /* Real copies on the table must number the jokers freed: all
                                   copies placed (low and high for an ace) reach the declared. */
                                int everywhere = placed;
                                if (high) everywhere += all_table + all_hand - table - hand;
                                if (everywhere < declared) continue;
                            }
                        }
                        if (!layer_add(ctx, to, after, total)) return 0;
                    }
                }
            }
        }
    }
    return 1;
}

/* Saves ``layer`` as the state after ``position`` (the position as it is, for the draws
   to start from); a snapshot that cannot be saved is simply not there. */
static void snapshot(PointsContext *ctx, int position, const Layer *layer) {
    Snapshot *saved = &ctx->snapshots[position];
    saved->ready = 0;
    if (layer->count > saved->capacity) {
        Item *items = (Item *)realloc(saved->items, sizeof(Item) * (size_t)layer->count);
        if (!items) return;
        saved->items = items;
        saved->capacity = layer->count;
    }
    memcpy(saved->items, layer->items, sizeof(Item) * (size_t)layer->count);
    saved->count = layer->count;
    saved->ready = 1;
}

/* Marks every saved state as gone (a new evaluation of the position starts). */
static void forget_snapshots(PointsContext *ctx) {
    for (int position = 0; position <= 14; position++) ctx->snapshots[position].ready = 0;
}

/* The least points of the evaluation set up in ``ctx``, ANSWER_INFEASIBLE when the
   table cannot be laid out at all, or ANSWER_UNKNOWN when a layer overflowed. */
static int64_t run_program(PointsContext *ctx, int64_t limit, int first) {
    Layer *from = &ctx->layers[0], *to = &ctx->layers[1];
    layer_clear(from);
    if (first > 1) {
        /* The positions before ``first`` hold the same cards as the position saved: go on
           from its states (those still under this limit). */
        const Snapshot *saved = &ctx->snapshots[first - 1];
        for (int i = 0; i < saved->count; i++)
            if (saved->items[i].points < limit && !layer_add(ctx, from, saved->items[i].key, saved->items[i].points))
                return ANSWER_UNKNOWN;
    } else {
        for (int freed = 0; freed < (1 << ctx->njokers); freed++) {
            uint64_t count = (uint64_t)__builtin_popcount((unsigned)freed);
            layer_add(ctx, from, (uint64_t)freed << FREED_SHIFT | ((uint64_t)ctx->hand_jokers + count) << AVAIL_SHIFT |
                                     count << REQUIRED_SHIFT, 0);
        }
    }
    for (int position = first; position <= ctx->positions; position++) {
        for (int suit = 0; suit < 4; suit++) {
            layer_clear(to);
            if (!step_suit(ctx, position, suit, from, to, limit)) return ANSWER_UNKNOWN;
            Layer *swap = from;
            from = to;
            to = swap;
        }
        /* The position's groups, with the jokers they take. */
        layer_clear(to);
        uint64_t done_flags = 0;
        for (int j = 0; j < ctx->njokers; j++) {
            int checked_at = ctx->joker_position[j] == 1 && ctx->ace_high ? 14 : ctx->joker_position[j];
            if (checked_at == position) done_flags |= (uint64_t)1 << (FREED_SHIFT + j);
        }
        for (int i = 0; i < from->count; i++) {
            uint64_t key = from->items[i].key;
            int avail = avail_of(key), required = required_of(key), grouped = grouped_of(key), most = most_of(key);
            uint64_t base = key & ~((uint64_t)3 << AVAIL_SHIFT) & ~((uint64_t)3 << REQUIRED_SHIFT) & ~((uint64_t)15 << GROUPED_SHIFT) &
                            ~((uint64_t)3 << MOST_SHIFT);
            base &= ~done_flags; /* the jokers checked at this position: only the counts matter now */
            for (int wild = 0; wild <= avail; wild++) {
                if (position == 14 && (grouped || wild)) break;
                if (!groups_fit(grouped, most, wild)) continue;
                if (!layer_add(ctx, to, base | jokers_after(avail, required, wild), from->items[i].points))
                    return ANSWER_UNKNOWN;
            }
        }
        Layer *swap = from;
        from = to;
        to = swap;
        if (ctx->snapshotting) snapshot(ctx, position, from);
        if (from->count == 0) return ANSWER_INFEASIBLE;
    }
    /* The end: no run of 1 or 2 cards open, every freed joker played, the hand jokers
       kept cost theirs. */
    int64_t best = -1;
    for (int i = 0; i < from->count; i++) {
        uint64_t key = from->items[i].key;
        int short_open = 0;
        for (int suit = 0; suit < 4; suit++)
            if (run_field(key, suit, 0) || run_field(key, suit, 1)) short_open = 1;
        if (short_open) continue;
        if (required_of(key)) continue;
        int64_t total = from->items[i].points + (int64_t)avail_of(key) * ctx->joker_points;
        if (best < 0 || total < best) best = total;
    }
    return best < 0 ? ANSWER_INFEASIBLE : best;
}

/* One call's position: what every question about it shares. */
typedef struct {
    int ace_high, hand_jokers, njokers;
    int table[NKINDS], hand[NKINDS], points[NKINDS], declared[MAX_JOKERS];
    int64_t joker_points;
    int64_t hand_points; /* the whole hand's points */
    int64_t base;        /* the answer for the position as it is */
    int bounded;         /* the base was found under the caller's bound (see fewest_points) */
} Inputs;

/* The least points with ``drawn`` (-1: nothing, a card index, NKINDS: a joker) added to
   the hand, and with one hand copy of card ``played`` (-1: none) put on the table for
   good, known to be below ``limit`` if there is a way; ANSWER_UNKNOWN past the budget. */
static int64_t evaluate(PointsContext *ctx, const Inputs *in, int drawn, int played, int64_t limit, int first) {
    int ace_high = in->ace_high, njokers = in->njokers;
    const int *table = in->table, *hand = in->hand, *points = in->points, *declared = in->declared;
    ctx->ace_high = ace_high;
    ctx->positions = ace_high ? 14 : 13;
    memset(ctx->table, 0, sizeof(ctx->table));
    memset(ctx->hand, 0, sizeof(ctx->hand));
    memset(ctx->points, 0, sizeof(ctx->points));
    for (int k = 0; k < NKINDS; k++) {
        int position = k / 4 + 1, suit = k % 4;
        ctx->table[position][suit] = table[k] + (played == k);
        ctx->hand[position][suit] = hand[k] + (drawn == k) - (played == k);
        ctx->points[position][suit] = points[k];
    }
    ctx->hand_jokers = in->hand_jokers + (drawn == NKINDS);
    ctx->joker_points = in->joker_points;
    /* A table joker whose card has no real copy anywhere can never be freed: it is a
       table copy of its card (and no joker declared so is freed, so none needs one). */
    ctx->njokers = 0;
    for (int j = 0; j < njokers; j++) {
        int card = declared[j], position = card / 4 + 1, suit = card % 4;
        if (table[card] + hand[card] + (drawn == card) == 0) {
            ctx->table[position][suit]++;
            continue;
        }
        ctx->joker_position[ctx->njokers] = position;
        ctx->joker_suit[ctx->njokers++] = suit;
    }
    ctx->states = 0;
    return run_program(ctx, limit, first);
}

/* The first position a draw changes, where its evaluation may start from the saved
   states: the drawn card's position, unless it is a joker (the joker counts change from
   the start), an ace (at the start anyway, and shared with position 14) or the
   card of a table joker that could not be freed without it (the start states change),
   or the states before it were not saved. */
static int first_changed(const PointsContext *ctx, const Inputs *in, int drawn) {
    if (drawn < 0 || drawn >= NKINDS) return 1;
    for (int j = 0; j < in->njokers; j++)
        if (in->declared[j] == drawn && in->table[drawn] + in->hand[drawn] == 0) return 1;
    int position = drawn / 4 + 1;
    if (position == 1) return 1;
    return ctx->snapshots[position - 1].ready ? position : 1;
}

/* Whether ``code`` is a question about this position (see fewest_points' doc): 0, or -1
   with an error set.  Checked with the GIL, before any is answered. */
static int question_valid(const Inputs *in, long code) {
    if (code >= PLAYED_CODE) {
        long played = code - PLAYED_CODE;
        if (played >= NKINDS || in->hand[played] == 0 || in->table[played] >= MAX_COPIES) {
            PyErr_Format(PyExc_ValueError, "draw %ld: the hand has no copy of card %ld to play", code, played);
            return -1;
        }
        return 0;
    }
    if (code < -1 || code > NKINDS || (code == NKINDS && in->hand_jokers + in->njokers >= MAX_JOKERS) ||
        (code >= 0 && code < NKINDS && in->hand[code] >= MAX_COPIES)) {
        PyErr_Format(PyExc_ValueError, "draw %ld: not -1, a card index with room for a copy, or a joker "
                     "within two jokers in all", code);
        return -1;
    }
    return 0;
}

/* The answer to question ``code``, one question_valid accepts.  Takes no Python. */
static int64_t question(PointsContext *ctx, const Inputs *in, long code) {
    if (code >= PLAYED_CODE) {
        int played = (int)(code - PLAYED_CODE);
        /* (under a bound the saved states stop at the bound: such a question would run
           from the start under the limit the position outgrew, so it is not asked) */
        return in->base == ANSWER_UNKNOWN || in->bounded
                   ? ANSWER_UNKNOWN
                   : evaluate(ctx, in, -1, played, in->hand_points + 1, first_changed(ctx, in, played));
    }
    if (code < 0) return in->base;
    /* The position as it is outgrew the budget: a question about it with one card more
       or one less on the table would outgrow it too, nearly always, after spending the
       whole budget again (some 5 ms, for each of an analysis' 40-odd draws). */
    if (in->base == ANSWER_UNKNOWN) return ANSWER_UNKNOWN;
    int64_t drawn_points = code == NKINDS ? in->joker_points : in->points[code];
    int first = first_changed(ctx, in, (int)code);
    /* Most draws leave no more than the position as it is (the drawn card is played, or
       helps play another): ask first for an answer at most ``base``, under that lower
       limit, which cuts about a quarter of the states.  An answer below the limit is
       exact (no state on its way was cut); otherwise (nothing, or only totals the cut
       states might beat) the draw is asked again under the full limit.  A layer
       overflow under the lower limit would overflow under the higher one too: its
       states are a subset. */
    if (in->base >= 0 && (drawn_points > 0 || in->bounded)) {
        int64_t low = evaluate(ctx, in, (int)code, -1, in->base + 1, first);
        if (low == ANSWER_UNKNOWN || (low >= 0 && low <= in->base)) return low;
        /* Under a bound the saved states stop there: the full limit would start from
           scratch under the limit the position outgrew.  Another backend answers. */
        if (in->bounded) return ANSWER_UNKNOWN;
    }
    /* Keeping the drawn card and playing as before is one way: an upper bound. */
    int64_t bound = (in->base >= 0 ? in->base : in->hand_points) + drawn_points;
    return evaluate(ctx, in, (int)code, -1, bound + 1, first);
}

/* One question of a call (see fewest_points' doc) and its answer. */
typedef struct {
    long code;
    int64_t answer;
} Question;

/* One call's answers: the position as it is (saving its states for the draws), and
   then each question.  Takes no Python: a call runs it without the GIL. */
static void answer_all(PointsContext *ctx, Inputs *in, long long bound, Question *questions, Py_ssize_t count) {
    in->hand_points = (int64_t)in->hand_jokers * in->joker_points;
    for (int k = 0; k < NKINDS; k++) in->hand_points += (int64_t)in->hand[k] * in->points[k];
    /* The position as it is, under a limit no draw exceeds, saving its states. */
    int64_t dearest = in->joker_points;
    for (int k = 0; k < NKINDS; k++)
        if (in->points[k] > dearest) dearest = in->points[k];
    forget_snapshots(ctx);
    ctx->snapshotting = 1;
    in->bounded = 0;
    in->base = evaluate(ctx, in, -1, -1, in->hand_points + dearest + 1, 1);
    if (in->base == ANSWER_UNKNOWN && bound >= 0 && bound < in->hand_points + dearest) {
        /* Past the budget: the caller's play bounds the answer, and under that limit the
           position often fits (the states dearer than the bound are cut).  Only an answer
           within the bound is taken (one outside it means the bound was not a play's). */
        forget_snapshots(ctx);
        int64_t within = evaluate(ctx, in, -1, -1, (int64_t)bound + 1, 1);
        if (within >= 0 && within <= bound) {
            in->base = within;
            in->bounded = 1;
        } else {
            forget_snapshots(ctx);
        }
    }
    ctx->snapshotting = 0;
    for (Py_ssize_t d = 0; d < count; d++) questions[d].answer = question(ctx, in, questions[d].code);
}

/* ---- The context pool ---- */

#define POOL_CONTEXTS 8 /* contexts kept for reuse (3.5 MB each, and the states they saved) */

/* The module's state: the contexts not in use, kept for the next calls (a new one costs
   its 3.5 MB and the clearing of its indexes), and the capsule's PointsApi.  The lock
   guards the free list (and stat_states); it is taken with or without the GIL, and
   nothing that needs the GIL is done while it is held. */
typedef struct {
    PyThread_type_lock lock;
    PointsContext *free; /* the free list */
    int pooled;          /* its length, at most POOL_CONTEXTS */
#ifdef POINTS_STATS
    long long stat_states; /* states made by the contexts given back since stats() */
#endif
    PointsApi api;
} PointsState;

/* A context for one call: a pooled one, or a new one; NULL when none can be allocated.
   Takes no Python. */
static PointsContext *pool_acquire(PointsState *state) {
    PyThread_acquire_lock(state->lock, WAIT_LOCK);
    PointsContext *ctx = state->free;
    if (ctx) {
        state->free = ctx->next;
        state->pooled--;
    }
    PyThread_release_lock(state->lock);
    if (!ctx) ctx = context_new();
    if (ctx) {
        ctx->next = NULL;
        ctx->snapshotting = 0;
        ctx->state_budget = STATE_BUDGET;
    }
    return ctx;
}

/* Gives ``ctx`` back: to the pool, or freed when the pool is full.  Takes no Python. */
static void pool_release(PointsState *state, PointsContext *ctx) {
    PyThread_acquire_lock(state->lock, WAIT_LOCK);
#ifdef POINTS_STATS
    state->stat_states += ctx->stat_states;
    ctx->stat_states = 0;
#endif
    int kept = state->pooled < POOL_CONTEXTS;
    if (kept) {
        ctx->next = state->free;
        state->free = ctx;
        state->pooled++;
    }
    PyThread_release_lock(state->lock);
    if (!kept) context_free(ctx);
}

/* Frees the pooled contexts (the module is cleared or freed). */
static void pool_drain(PointsState *state) {
    if (!state->lock) return; /* the module's exec did not get as far: nothing pooled */
    PyThread_acquire_lock(state->lock, WAIT_LOCK);
    PointsContext *ctx = state->free;
    state->free = NULL;
    state->pooled = 0;
    PyThread_release_lock(state->lock);
    while (ctx) {
        PointsContext *next = ctx->next;
        context_free(ctx);
        ctx = next;
    }
}

/* The capsule's ``fewest`` (see _points_api.h): one evaluation of the cards as given,
   no jokers, no draw, under ``limit`` and ``budget`` states, in a context of its own
   (so the saved states of an analysis under way are neither used nor touched).  Takes
   no Python: the search asks without the GIL, from several threads. */
static int64_t api_fewest(const PointsApi *api, int ace_high, const int *table, const int *hand,
                          const int *points, int64_t limit, long budget) {
    PointsState *state = (PointsState *)api->owner;
    PointsContext *ctx = pool_acquire(state);
    if (!ctx) return ANSWER_UNKNOWN;
    Inputs in;
    memset(&in, 0, sizeof(in));
    in.ace_high = ace_high;
    for (int k = 0; k < NKINDS; k++) {
        in.table[k] = table[k];
        in.hand[k] = hand[k];
        in.points[k] = points[k];
    }
    ctx->state_budget = budget;
    int64_t found = evaluate(ctx, &in, -1, -1, limit, 1);
    pool_release(state, ctx);
    return found;
}

/* ---- Python interface ---- */

PyDoc_STRVAR(fewest_points_doc,
             "fewest_points(ace_high, table, hand, points, hand_jokers, joker_points, table_jokers, draws, bound=-1)\n"
             "--\n\n"
             "The fewest hand points after one play, for the position with each of ``draws`` added\n"
             "to the hand: -1 for the position as it is, a card index 0..51, or 52 for a joker; or\n"
             "100 + k: with one hand copy of card k played (is there a legal play that uses it?).\n"
             "``table`` and ``hand`` count real copies per card index, ``points`` what a hand copy\n"
             "left costs, ``table_jokers`` the card index each table joker stands for.  Returns a\n"
             "list of answers: the points, -1 when the table cannot be laid out, -2 when the program\n"
             "outgrew its budget, on that question or on the position as it is (ask another backend).\n"
             "``bound`` (when >= 0) is the points some play of the position as it is leaves (the\n"
             "caller's best play): when the position outgrows the budget under the limit every draw\n"
             "needs, it is evaluated again under the bound, and then only the draws that leave no\n"
             "more than the position are answered (the others, and the 100 + k questions, -2).");

/* ``given`` as a tuple: its items stay held while their __index__ runs, whatever that
   does to ``given``; NULL with ``message`` as the TypeError when it is no sequence. */
static PyObject *as_tuple(PyObject *given, const char *message) {
    PyObject *fast = PySequence_Fast(given, message);
    if (!fast) return NULL;
    PyObject *items = PySequence_Tuple(fast);
    Py_DECREF(fast);
    return items;
}

/* Reads fewest_points' position into ``in``, and its ``bound`` and ``draws`` (borrowed
   from ``args``); -1 with an error set. */
static int read_position(PyObject *args, Inputs *in, long long *bound, PyObject **draws) {
    int ace_high, hand_jokers;
    long long joker_points;
    PyObject *table_obj, *hand_obj, *points_obj, *jokers_obj;
    if (!PyArg_ParseTuple(args, "pOOOiLOO|L", &ace_high, &table_obj, &hand_obj, &points_obj, &hand_jokers,
                          &joker_points, &jokers_obj, draws, bound))
        return -1;
    memset(in, 0, sizeof(*in));
    in->ace_high = ace_high;
    in->hand_jokers = hand_jokers;
    in->joker_points = joker_points;
    if (read_counts(table_obj, MAX_COPIES, in->table, "table") || read_counts(hand_obj, MAX_COPIES, in->hand, "hand") ||
        read_counts(points_obj, MAX_POINTS, in->points, "points"))
        return -1;
    if (joker_points < 0 || joker_points > MAX_POINTS) {
        PyErr_SetString(PyExc_ValueError, "joker_points is outside 0..1000000");
        return -1;
    }
    PyObject *jokers = as_tuple(jokers_obj, "table_jokers must be a sequence");
    if (!jokers) return -1;
    Py_ssize_t njokers = PyTuple_GET_SIZE(jokers);
    if (njokers > MAX_JOKERS || hand_jokers < 0 || hand_jokers + njokers > MAX_JOKERS) {
        Py_DECREF(jokers);
        PyErr_SetString(PyExc_ValueError, "at most two jokers in all");
        return -1;
    }
    in->njokers = (int)njokers;
    for (Py_ssize_t j = 0; j < njokers; j++) {
        long card = PyLong_AsLong(PyTuple_GET_ITEM(jokers, j));
        if (card < 0 || card >= NKINDS) {
            Py_DECREF(jokers);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a table joker stands for a card index 0..51");
            return -1;
        }
        in->declared[j] = (int)card;
    }
    Py_DECREF(jokers);
    return 0;
}

/* The questions ``draws`` asks about the position ``in``, read and checked all before
   any is answered (a code's __index__ may run any Python, this module included); NULL
   with an error set.  The caller frees them with PyMem_Free. */
static Question *read_questions(const Inputs *in, PyObject *draws, Py_ssize_t *count) {
    PyObject *codes = as_tuple(draws, "draws must be a sequence");
    if (!codes) return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(codes);
    Question *questions = PyMem_New(Question, n > 0 ? n : 1);
    if (!questions) {
        Py_DECREF(codes);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t d = 0; d < n; d++) {
        long code = PyLong_AsLong(PyTuple_GET_ITEM(codes, d));
        if ((code == -1 && PyErr_Occurred()) || question_valid(in, code)) {
            PyMem_Free(questions);
            Py_DECREF(codes);
            return NULL;
        }
        questions[d].code = code;
    }
    Py_DECREF(codes);
    *count = n;
    return questions;
}

static PyObject *answers_list(const Question *questions, Py_ssize_t count) {
    PyObject *answers = PyList_New(count);
    if (!answers) return NULL;
    for (Py_ssize_t d = 0; d < count; d++) {
        PyObject *value = PyLong_FromLongLong((long long)questions[d].answer);
        if (!value) {
            Py_DECREF(answers);
            return NULL;
        }
        PyList_SET_ITEM(answers, d, value);
    }
    return answers;
}

static PyObject *fewest_points(PyObject *module, PyObject *args) {
    Inputs in;
    long long bound = -1;
    PyObject *draws;
    Py_ssize_t count = 0;
    if (read_position(args, &in, &bound, &draws)) return NULL;
    Question *questions = read_questions(&in, draws, &count);
    if (!questions) return NULL;
    PointsState *state = (PointsState *)PyModule_GetState(module);
    int answered = 0;
    /* The evaluations take no Python: other threads run meanwhile. */
    Py_BEGIN_ALLOW_THREADS
    PointsContext *ctx = pool_acquire(state);
    if (ctx) {
        answer_all(ctx, &in, bound, questions, count);
        pool_release(state, ctx);
        answered = 1;
    }
    Py_END_ALLOW_THREADS
    PyObject *answers = answered ? answers_list(questions, count) : PyErr_NoMemory();
    PyMem_Free(questions);
    return answers;
}

#ifdef POINTS_STATS
static PyObject *stats(PyObject *module, PyObject *args) {
    (void)args;
    PointsState *state = (PointsState *)PyModule_GetState(module);
    PyThread_acquire_lock(state->lock, WAIT_LOCK);
    long long states = state->stat_states;
    state->stat_states = 0;
    PyThread_release_lock(state->lock);
    return Py_BuildValue("L", states);
}
#endif

static PyMethodDef methods[] = {
#ifdef POINTS_STATS
    {"stats", stats, METH_NOARGS, "states added since the last call"},
#endif
    {"fewest_points", fewest_points, METH_VARARGS, fewest_points_doc},
    {NULL, NULL, 0, NULL},
};

static int module_exec(PyObject *module) {
    PointsState *state = (PointsState *)PyModule_GetState(module);
    state->lock = PyThread_allocate_lock();
    if (!state->lock) {
        PyErr_NoMemory();
        return -1;
    }
    state->api.fewest = api_fewest;
    state->api.owner = state;
    if (PyModule_AddIntConstant(module, "INFEASIBLE", ANSWER_INFEASIBLE) ||
        PyModule_AddIntConstant(module, "UNKNOWN", ANSWER_UNKNOWN))
        return -1;
    /* For the search (the _search module): see _points_api.h.  The PointsApi lives in
       the module's state, as long as the module. */
    PyObject *capsule = PyCapsule_New(&state->api, POINTS_API_CAPSULE, NULL);
    if (!capsule) return -1;
    int added = PyModule_AddObjectRef(module, "_api", capsule);
    Py_DECREF(capsule);
    return added;
}

static int module_clear(PyObject *module) {
    PointsState *state = (PointsState *)PyModule_GetState(module);
    if (state) pool_drain(state);
    return 0;
}

static void module_free(void *module) {
    PointsState *state = (PointsState *)PyModule_GetState((PyObject *)module);
    if (!state) return;
    pool_drain(state);
    if (state->lock) PyThread_free_lock(state->lock);
    state->lock = NULL;
}

static PyModuleDef_Slot slots[] = {
    {Py_mod_exec, (void *)module_exec},
    {0, NULL},
};

static struct PyModuleDef module_def = {
    .m_base = PyModuleDef_HEAD_INIT,
    .m_name = "_points",
    .m_doc = "The fewest points a hand can keep after one play, by dynamic programming over card positions.",
    .m_size = sizeof(PointsState),
    .m_methods = methods,
    .m_slots = slots,
    .m_clear = module_clear,
    .m_free = module_free,
};

PyMODINIT_FUNC PyInit__points(void) { return PyModuleDef_Init(&module_def); }
