/*
 * The search's moves: everything that can happen to the pivot of a state (see
 * search.h).  A block is kept in a final meld that holds it whole, or broken; a loose
 * card goes into a meld, or (optional) stays in the hand.  Each meld tried holds the
 * pivot; its other slots take a loose card, a hand joker, a whole intact block
 * (absorbed: kept), or a card of an intact block that is broken for it.  Each finished
 * step is a ``leaf``: the rest of the state is solved (solve.c) under what is left of
 * the expansion's limit.
 */

#include <stddef.h>
#include <string.h>

#include "search.h"

/* ---- the meld a step lays down ---- */
enum { STEP_MELD, STEP_LEAVE };

typedef struct {
    int is_run;
    int suit, first, last, jokers; /* a run: suit, positions first..last, bit mask of joker positions */
    int rank, reals, joker_suits;  /* a group: rank, suits held by real cards, suits jokers stand for */
    int kept;                      /* whether it holds a whole old meld (kept, absorbed) */
    uint64_t locked;               /* table jokers of the old melds it keeps: a run's by position
                                      (an ace may stand at both ends), a group's by card */
} Laid;

/* The laid meld's pieces as output codes (a card index, +JOKER_FLAG, +LOCKED_FLAG). */
static int laid_codes(const Laid *m, int *out) {
    int n = 0;
    if (m->is_run) {
        for (int t = m->first; t <= m->last; t++) {
            int card = card_at(t, m->suit);
            if ((m->jokers >> t) & 1) out[n++] = card + JOKER_FLAG;
            else out[n++] = card + (((m->locked >> t) & 1) ? LOCKED_FLAG : 0);
        }
        return n;
    }
    for (int suit = 0; suit < 4; suit++) {
        int card = (m->rank - 1) * 4 + suit;
        if ((m->reals >> suit) & 1) out[n++] = card + (((m->locked >> card) & 1) ? LOCKED_FLAG : 0);
        else if ((m->joker_suits >> suit) & 1) out[n++] = card + JOKER_FLAG;
    }
    return n;
}

/* Whether the laid meld holds every card of block ``b`` as a real card. */
static int holds_block(const Problem *p, const Laid *m, int b) {
    const Block *block = &p->blocks[b];
    if (m->is_run != block->is_run) return 0;
    if (!m->is_run) return m->rank == block->rank && (m->reals & block->suits) == block->suits;
    if (m->suit != block->suit || m->first > block->first || m->last < block->last) return 0;
    int span = ((1 << (block->last + 1)) - 1) & ~((1 << block->first) - 1);
    return (m->jokers & span) == 0;
}

/* The opening: state ``child`` with the laid meld's value taken from the value still
   needed, into ``reduced``. */
static const State *after_opening(const Problem *p, const State *child, const Laid *laid, State *reduced) {
    int codes[16], value = 0;
    int n = laid_codes(laid, codes);
    for (int i = 0; i < n; i++) value += p->value[codes[i] % JOKER_FLAG];
    *reduced = *child;
    set_need(reduced, need_of(child) > value ? need_of(child) - value : 0);
    return reduced;
}

/* The walk back: the step just solved reaches the trace's target, so it is the winner. */
static void trace_step(Trace *trace, const State *child, int step, const Laid *laid) {
    trace->traced = 1;
    trace->child = *child;
    trace->n = step == STEP_MELD ? laid_codes(laid, trace->meld) : 0;
    trace->kept = step == STEP_MELD ? laid->kept : 0;
}

/*
 * A finished step: the rest costs solve(child).  Returns the step's total, exact when
 * below the expansion's bound, otherwise a lower bound; remembers the step while
 * tracing if it is the winner.  A step whose own cost already reaches the bound is cut.
 */
static int64_t leaf(Search *S, Frame *F, const State *child, int64_t extra, int step, const Laid *laid) {
    const Problem *p = &S->problem;
    S->steps++;
    /* Breaking a block and laying all its cards in one meld again is worse than keeping it. */
    if (step == STEP_MELD && F->avoid >= 0 && holds_block(p, laid, F->avoid)) return INF;
    State reduced;
    if (step == STEP_MELD && need_of(child) > 0) child = after_opening(p, child, laid, &reduced);
    int64_t bound = F->best < F->limit ? F->best : F->limit;
    if (extra >= bound) {
        if (extra < F->best) F->best = extra;
        return extra;
    }
    Trace *trace = F->trace && !F->trace->traced ? F->trace : NULL;
    /* The child's floor: the state's, less the points this step left in the hand (its
       extra is W * points + melds broken, the breaks fewer than W). */
    int64_t child_floor = 0;
    if (F->floor > 0) {
        child_floor = F->floor - extra / p->weight;
        if (child_floor < 0) child_floor = 0;
    }
    if (child_floor > 0 && extra + child_floor * p->weight >= bound) {
        int64_t total = extra + child_floor * p->weight;
        if (total < F->best) F->best = total;
        return total;
    }
    int64_t rest = solve(S, child, bound - extra, child_floor, F->local);
    int64_t total = rest >= INF ? INF : rest + extra;
    if (total < F->best) F->best = total;
    if (trace && total == trace->target) trace_step(trace, child, step, laid);
    return total;
}

/*
 * Block ``b`` breaks: its cards become mandatory loose cards.  A table joker in it is
 * freed (a mandatory wildcard) while fewer jokers of its card are freed than the freeing
 * capacity of that card allows (RULES.md's counting rule, with the capacity fixed by the
 * caller's configuration), else it stays locked: a mandatory card of its declared kind.
 * Freeing whenever allowed never loses, since a wildcard may keep its old declaration,
 * except where jokers of one card compete for the capacity: there a joker that keeps
 * its card should stay locked and leave the capacity to the other, so the callers try
 * both (``lock``: a bit per entry of the joker list to keep locked; see
 * ``next_lock``).  Returns whether a joker was freed.
 */
static int break_block(const Problem *p, State *s, int b, int lock) {
    const Block *block = &p->blocks[b];
    uint64_t freed = 0;
    for (int i = 0; block->joker_mask && i < p->njokers; i++) {
        if (p->joker_blocks[i] != b || (lock >> i) & 1) continue;
        int card = p->joker_cards[i];
        if (jokers_freed(p, s, card) < p->free[card]) {
            freed |= (uint64_t)1 << card;
            s->w[3] |= (uint64_t)1 << (FREED_SHIFT + i);
        }
    }
    s->mask &= ~((uint64_t)1 << b);
    for (int i = 0; i < block->ncards; i++) {
        int card = block->cards[i];
        if ((freed >> card) & 1) add_wild(s);
        else add_mand(s, card);
    }
    return freed != 0;
}

/*
 * The ways block ``b`` can break are its lock masks (see ``break_block``): 0, every joker
 * freed that may be, then each other subset of its contested jokers (``contested``)
 * kept locked, where locking changes something (each would be freed otherwise).  A
 * caller loops ``for (lock = 0; lock >= 0; lock = next_lock(p, s, b, lock))``.
 */
static inline int next_lock(const Problem *p, const State *s, int b, int lock) {
    int contested = p->contested[b];
    if (!contested) return -1;
    for (;;) {
        lock = (lock - contested) & contested; /* the next subset, back to 0 after all */
        if (lock == 0) return -1;
        int matters = 1;
        for (int i = 0; i < p->njokers; i++)
            if ((lock >> i) & 1 && jokers_freed(p, s, p->joker_cards[i]) >= p->free[p->joker_cards[i]]) matters = 0;
        if (matters) return lock;
    }
}

/*
 * The ways one slot holding card ``card`` can be filled from state ``s``: a mandatory
 * copy (then nothing else), else an optional copy, a hand joker, or a card of an
 * intact block that breaks for it.  Below ``low`` only a joker fits.
 */
typedef struct {
    State state;
    int64_t extra;
    int joker;
    int source; /* a wildcard's: 0 mandatory, 1 a hand joker, 2 + b the table joker of block b */
} Option;

/* A slot's options: an optional copy; with three jokers in all, at most four wildcards
   (a hand joker and a joker freed from each block, one of them two ways when its other
   joker competes for its card's capacity); at most four blocks holding the card, two
   of them a second way (a competing joker kept locked): 11.  The blocks' options are
   checked against the room left all the same (past it, the search gives up). */
#define MAX_OPTIONS 12

/* Whether block ``b`` is the first block of the joker list entry ``i`` (a block with two
   jokers is listed twice). */
static int first_joker_entry(const Problem *p, int i) {
    for (int j = 0; j < i; j++)
        if (p->joker_blocks[j] == p->joker_blocks[i]) return 0;
    return 1;
}

static void set_option(Option *option, const State *s, int64_t extra, int joker, int source) {
    option->state = *s;
    option->extra = extra;
    option->joker = joker;
    option->source = source;
}

/*
 * The wildcards a slot can take, as options at ``out``: a mandatory wildcard when one
 * is left (then nothing else: wildcards are alike, and a mandatory one must be used),
 * else a hand joker, or a table joker freed by breaking its intact block for it.
 */
static int wild_options(Search *S, const State *s, Option *out) {
    const Problem *p = &S->problem;
    if (wild_of(s) > 0) {
        set_option(&out[0], s, 0, 1, 0);
        take_wild(&out[0].state);
        return 1;
    }
    int n = 0;
    if (jokers_of(s) > 0) {
        set_option(&out[n], s, 0, 1, 1);
        take_joker(&out[n].state);
        n++;
    }
    for (int i = 0; i < p->njokers; i++) {
        int b = p->joker_blocks[i];
        if (!((s->mask >> b) & 1) || !first_joker_entry(p, i)) continue;
        for (int lock = 0; lock >= 0; lock = next_lock(p, s, b, lock)) {
            if (n >= MAX_OPTIONS - 1) {
                S->aborted = 1;
                break;
            }
            set_option(&out[n], s, 1, 1, 2 + b);
            if (!break_block(p, &out[n].state, b, lock)) continue;
            take_wild(&out[n].state);
            n++;
        }
    }
    return n;
}

static int slot_options(Search *S, const State *s, int card, int low, int allow_joker, Option *out) {
    const Problem *p = &S->problem;
    int n = 0;
    if (card < low) return allow_joker ? wild_options(S, s, out) : 0;
    if (mand_of(s, card) > 0) {
        set_option(&out[0], s, 0, 0, 0);
        take_mand(&out[0].state, card);
        return 1;
    }
    if (opt_of(s, card) > 0) {
        set_option(&out[n], s, 0, 0, 0);
        take_opt(&out[n].state, card);
        n++;
    }
    if (allow_joker) n += wild_options(S, s, &out[n]);
    for (int i = 0; i < p->nholding[card]; i++) {
        int b = p->holding[card][i];
        if (!(s->mask & ((uint64_t)1 << b))) continue;
        for (int lock = 0; lock >= 0; lock = next_lock(p, s, b, lock)) {
            if (n >= MAX_OPTIONS) {
                S->aborted = 1;
                break;
            }
            set_option(&out[n], s, 1, 0, 0);
            break_block(p, &out[n].state, b, lock);
            /* The block's card was a table joker, freed: that is a wildcard option above. */
            if (mand_of(&out[n].state, card) == 0) continue;
            take_mand(&out[n].state, card);
            n++;
        }
    }
    return n;
}

/*
 * Runs of one suit starting at ``first``, filled from position ``t`` upwards, that
 * must cover the prefilled positions ``held_first..held_last`` (the lowest item, or a
 * kept block).  Every end at or past the prefilled part, 3 cards long or more, is a leaf.
 *
 * A run is built from segments: single slots, absorbed blocks and the prefilled part.
 * When a segment starts 3 or more positions after ``first`` (the first such start is
 * ``cut``) and the run reaches 3 positions past it, the run splits there into two legal
 * runs without breaking anything, so it is left out: the two halves are found apart.
 *
 * Redeclared keeps.  An old meld is kept when all its pieces end in one meld, its table
 * jokers included whatever they stand for there (docs/rules.md): a run block may keep
 * its real cards in place, take real cards where some of its jokers stood, and carry
 * those jokers (freed, within the capacity) to other places of the same run.  Such a
 * run is ``whole``: it sets no new cut once the block or one of its jokers is in it (the
 * two halves would part the jokers from their block; a cut set before stays good, as
 * everything after it lies on one side).  ``own`` counts the block's jokers still to
 * place in this run, or, below 0, jokers placed ahead of a block the run will absorb
 * later; a run ends only with ``own`` at 0.
 */
typedef struct {
    int suit, first, held_first, held_last, low;
    int whole; /* no new cut (see above) */
} RunShape;

/* A run under way: what its slots so far cost and hold. */
typedef struct {
    int64_t extra;   /* the cost of its steps so far */
    int cut;         /* see above; 0: none */
    int jokers;      /* positions wildcards fill */
    int kept;        /* whether it holds a whole old meld */
    uint64_t locked; /* positions of table jokers kept in their old meld */
    int own;         /* redeclared jokers still to place (> 0), or placed ahead of their block (< 0) */
} RunSoFar;

static int64_t run_from(Search *S, Frame *F, const State *s, const RunShape *r, int t, RunSoFar so);

/*
 * Whether a meld under way whose steps already cost ``extra`` can be left unfinished:
 * its slots only add to that, so each of its leaves would cost at least as much as the
 * expansion's best step so far, and ``leaf`` would cut it without solving anything
 * (a leaf at or past the bound only lowers ``best`` to its own cost).  Leaving it
 * changes nothing the expansion returns, remembers or traces; where the best step is
 * cheap and the table has many blocks to break for a slot (each break costs 1), it
 * spares most of the work of an expansion: on the suites' slowest positions, 97-99% of
 * the runs tried were such dead ends (benchmarks/results/tail-experiments.md).
 */
static inline int cut_short(const Frame *F, int64_t extra) { return extra >= F->best; }

/* The run ends at ``last``: a leaf, unless a redeclared joker is not in it yet. */
static int64_t run_leaf(Search *S, Frame *F, const State *s, const RunShape *r, int last, const RunSoFar *so) {
    if (so->own != 0) return INF;
    Laid laid = {1, r->suit, r->first, last, so->jokers, 0, 0, 0, so->kept, so->locked};
    return leaf(S, F, s, so->extra, STEP_MELD, &laid);
}

/* The run goes on from ``t`` (``s``, ``so``): a leaf where it may end there, and the rest. */
static int64_t run_step(Search *S, Frame *F, const State *s, const RunShape *r, int t, const RunSoFar *so) {
    int64_t best = INF;
    if (t > r->held_last && t - r->first + 1 >= 3) best = run_leaf(S, F, s, r, t, so);
    if (t < S->problem.max_position) {
        int64_t v = run_from(S, F, s, r, t + 1, *so);
        if (v < best) best = v;
    }
    return best;
}

/* How many table jokers of intact run blocks of ``suit`` that reach above ``t`` the
   capacity could free, each on its own: a joker placed at ``t`` may be one of them, moved
   ahead of its block, and the run must then absorb that block with it.  More jokers placed
   ahead than there are can never all be repaid (the run would end with ``own`` below 0),
   so the search places no more: at most this many debts, where any 4 were tried (on big
   tables with locked jokers that multiplied a run's branches and made expansions hundreds
   of times slower). */
static int debt_room(const Problem *p, const State *s, int suit, int t) {
    int room = 0;
    for (int i = 0; i < p->njokers; i++) {
        const Block *block = &p->blocks[p->joker_blocks[i]];
        if (block->is_run && block->suit == suit && block->last > t && (s->mask >> p->joker_blocks[i]) & 1 &&
            jokers_freed(p, s, p->joker_cards[i]) < p->free[p->joker_cards[i]])
            room++;
    }
    return room;
}

/* The run's slot at ``t`` filled each way it can be (``here``: the cut from here on),
   a redeclared joker among them. */
static int64_t run_slot(Search *S, Frame *F, const State *s, const RunShape *r, int t, const RunSoFar *so,
                        int here) {
    int64_t best = INF;
    Option options[MAX_OPTIONS];
    int n = slot_options(S, s, card_at(t, r->suit), r->low, 1, options);
    for (int i = 0; i < n; i++) {
        RunSoFar next = *so;
        next.extra += options[i].extra;
        next.jokers |= options[i].joker << t;
        next.cut = here;
        int64_t v = run_step(S, F, &options[i].state, r, t, &next);
        if (v < best) best = v;
    }
    if (so->own > 0 || (so->own > -MAX_JOKERS && -so->own < debt_room(&S->problem, s, r->suit, t))) {
        RunShape whole = *r;
        whole.whole = 1;
        RunSoFar next = *so;
        next.own--;
        next.jokers |= 1 << t;
        next.cut = here;
        int64_t v = run_step(S, F, s, &whole, t, &next);
        if (v < best) best = v;
    }
    return best;
}

/* Where a redeclared run block's holes are filled: the run goes on past the block. */
typedef struct {
    const RunShape *r;
    int end;
    RunSoFar so;
} Absorbed;

typedef int64_t (*AfterHoles)(Search *S, Frame *F, const State *s, int64_t extra, const void *arg);

/* Each way of filling the ``n`` holes ``cards`` (places a redeclared joker left) with real
   copies, then ``then``. */
static int64_t fill_holes(Search *S, Frame *F, const State *s, const int *cards, int n, int low, int64_t extra,
                          AfterHoles then, const void *arg) {
    if (cut_short(F, extra)) return INF;
    if (n == 0) return then(S, F, s, extra, arg);
    int64_t best = INF;
    Option options[MAX_OPTIONS];
    int count = slot_options(S, s, cards[0], low, 0, options);
    for (int i = 0; i < count; i++) {
        int64_t v = fill_holes(S, F, &options[i].state, cards + 1, n - 1, low, extra + options[i].extra, then, arg);
        if (v < best) best = v;
    }
    return best;
}

static int64_t after_absorbed(Search *S, Frame *F, const State *s, int64_t extra, const void *arg) {
    const Absorbed *at = (const Absorbed *)arg;
    RunSoFar so = at->so;
    so.extra = extra;
    int64_t best = at->end >= at->r->held_last ? run_leaf(S, F, s, at->r, at->end, &so) : INF;
    if (at->end < S->problem.max_position) {
        int64_t v = run_from(S, F, s, at->r, at->end + 1, so);
        if (v < best) best = v;
    }
    return best;
}

/* The position a joker entry ``i`` of run block ``block`` stands at. */
static int joker_place(const Problem *p, const Block *block, int i) {
    int rank = p->joker_cards[i] / 4 + 1;
    return rank == 1 && block->last == 14 ? 14 : rank;
}

/*
 * The sets of block ``b``'s table jokers that may move inside its meld (a redeclared
 * keep): each nonempty set of its joker entries that the capacity lets free together,
 * as bits of the joker list, at ``out`` (at most 7); returns how many.
 */
static int moved_sets(const Problem *p, const State *s, int b, int *out) {
    int entries = 0, n = 0;
    for (int i = 0; i < p->njokers; i++)
        if (p->joker_blocks[i] == b) entries |= 1 << i;
    for (int moved = entries; moved; moved = (moved - 1) & entries) {
        State trial = *s;
        int fits = 1;
        for (int i = 0; i < p->njokers; i++) {
            if (!((moved >> i) & 1)) continue;
            if (jokers_freed(p, &trial, p->joker_cards[i]) >= p->free[p->joker_cards[i]]) fits = 0;
            trial.w[3] |= (uint64_t)1 << (FREED_SHIFT + i);
        }
        if (fits) out[n++] = moved;
    }
    return n;
}

/*
 * A redeclared keep of a block: its jokers ``moved`` leave their places for others in the
 * same meld.  A run's *core* is the span of the places that stay (its real cards and the
 * jokers that do not move); a moved joker's place inside the core is a hole a real copy
 * fills, one at an end of the block simply drops out of the run (the real copy the
 * counting rule asks for is elsewhere on the table).  A group of three has one joker
 * moved: a real copy takes its suit, the joker the fourth.
 */
typedef struct {
    int moved;              /* jokers that move */
    int first, last;        /* a run's core */
    int holes[MAX_JOKERS];  /* the cards real copies must give */
    int nholes;
    uint64_t locked;        /* the jokers that stay: a run's by place, a group's by card */
} Core;

/* Block ``b`` kept with its jokers ``moved`` (bits of the joker list) freed: ``s``
   without the block, the jokers marked; its core into ``core``; 0, or -1 when nothing
   of the block would stay. */
static int redeclare(const Problem *p, State *s, int b, int moved, Core *core) {
    const Block *block = &p->blocks[b];
    uint64_t gone = 0, gone_cards = 0;
    memset(core, 0, sizeof(*core));
    s->mask &= ~((uint64_t)1 << b);
    for (int i = 0; i < p->njokers; i++) {
        if (!((moved >> i) & 1)) continue;
        s->w[3] |= (uint64_t)1 << (FREED_SHIFT + i);
        core->moved++;
        gone_cards |= (uint64_t)1 << p->joker_cards[i];
        if (block->is_run) gone |= (uint64_t)1 << joker_place(p, block, i);
        else core->holes[core->nholes++] = p->joker_cards[i];
    }
    if (!block->is_run) {
        core->locked = block->joker_mask & ~gone_cards;
        return core->moved == 1 ? 0 : -1;
    }
    core->first = block->first;
    while (core->first <= block->last && (gone >> core->first) & 1) core->first++;
    core->last = block->last;
    while (core->last >= core->first && (gone >> core->last) & 1) core->last--;
    if (core->first > core->last) return -1;
    for (int at = core->first + 1; at < core->last; at++)
        if ((gone >> at) & 1) core->holes[core->nholes++] = card_at(at, block->suit);
    core->locked = block->joker_places & ~gone;
    return 0;
}

/* The run at ``t`` takes block ``b`` whole, as it is. */
static int64_t absorb_kept(Search *S, Frame *F, const State *s, const RunShape *r, const RunSoFar *so, int here,
                           int b) {
    const Block *block = &S->problem.blocks[b];
    State next = *s;
    next.mask &= ~((uint64_t)1 << b);
    RunSoFar kept = *so;
    kept.cut = here;
    kept.kept = 1;
    kept.locked |= block->joker_places;
    Absorbed at = {r, block->last, kept};
    return after_absorbed(S, F, &next, kept.extra, &at);
}

/* The run at ``t`` takes intact block ``b`` redeclared, each way whose core starts at
   ``t`` (the run's cut before is ``so->cut``: a redeclared block sets none). */
static int64_t absorb_redeclared(Search *S, Frame *F, const State *s, const RunShape *r, int t, const RunSoFar *so,
                                 int b) {
    const Problem *p = &S->problem;
    int64_t best = INF;
    int sets[8], nsets = moved_sets(p, s, b, sets);
    RunShape whole = *r;
    whole.whole = 1;
    for (int k = 0; k < nsets; k++) {
        State next = *s;
        Core core;
        if (redeclare(p, &next, b, sets[k], &core) != 0 || core.first != t) continue;
        if (t < r->held_first && core.last >= r->held_first) continue;
        if (so->cut && core.last - so->cut + 1 >= 3) continue;
        Absorbed at = {&whole, core.last, *so};
        at.so.kept = 1;
        at.so.locked |= core.locked;
        at.so.own += core.moved;
        int64_t v = fill_holes(S, F, &next, core.holes, core.nholes, r->low, so->extra, after_absorbed, &at);
        if (v < best) best = v;
    }
    return best;
}

/* The run goes on at ``t`` with a whole intact run block: one that starts there, kept
   as it is, or one whose redeclared core starts there. */
static int64_t run_blocks(Search *S, Frame *F, const State *s, const RunShape *r, int t, const RunSoFar *so,
                          int here) {
    const Problem *p = &S->problem;
    int64_t best = INF;
    for (int i = 0; i < p->nruns_at[r->suit][t]; i++) {
        int b = p->runs_at[r->suit][t][i];
        const Block *block = &p->blocks[b];
        if (!(s->mask & ((uint64_t)1 << b)) || (t < r->held_first && block->last >= r->held_first)) continue;
        if (here && block->last - here + 1 >= 3) continue;
        int64_t v = absorb_kept(S, F, s, r, so, here, b);
        if (v < best) best = v;
    }
    for (int i = 0; i < p->njokers; i++) {
        int b = p->joker_blocks[i];
        const Block *block = &p->blocks[b];
        if (!block->is_run || block->suit != r->suit || !((s->mask >> b) & 1) || !first_joker_entry(p, i)) continue;
        if (block->first > t || block->last < t) continue;
        int64_t v = absorb_redeclared(S, F, s, r, t, so, b);
        if (v < best) best = v;
    }
    return best;
}

static int64_t run_from(Search *S, Frame *F, const State *s, const RunShape *r, int t, RunSoFar so) {
    const Problem *p = &S->problem;
    if (cut_short(F, so.extra)) return INF;
    int64_t best = INF;
    if (t == r->held_first) {
        if (!so.cut && !r->whole && t >= r->first + 3) so.cut = t;
        if (so.cut && r->held_last - so.cut + 1 >= 3) return best;
        t = r->held_last + 1;
        if (r->held_last - r->first + 1 >= 3) best = run_leaf(S, F, s, r, r->held_last, &so);
        if (t > p->max_position) return best;
    }
    int here = !so.cut && !r->whole && t >= r->first + 3 ? t : so.cut;
    if (!(here && t - here + 1 >= 3)) {
        int64_t v = run_slot(S, F, s, r, t, &so, here);
        if (v < best) best = v;
    }
    int64_t v = run_blocks(S, F, s, r, t, &so, here);
    return v < best ? v : best;
}

/* Every run start at or below ``held_first`` (lower slots are jokers or later cards);
   ``kept`` when the prefilled part is a kept block, whose table jokers are at the
   positions ``locked``; ``own`` redeclared jokers to place (then the run is whole). */
static int64_t runs_through(Search *S, Frame *F, const State *s, int suit, int held_first, int held_last, int low,
                            int64_t base, int kept, uint64_t locked, int own) {
    int64_t best = INF;
    for (int first = held_first; first >= 1 && held_last - first + 1 <= S->problem.max_position; first--) {
        RunShape r = {suit, first, held_first, held_last, low, own != 0};
        RunSoFar so = {base, 0, 0, kept, locked, own};
        int64_t v = run_from(S, F, s, &r, first, so);
        if (v < best) best = v;
    }
    return best;
}

/*
 * A group of ``rank`` with real cards of the suits ``reals`` and wildcards for
 * ``joker_suits``: a leaf at 3 or 4 cards, and one more wildcard for the next missing
 * suit (which missing suit a wildcard names does not matter).  The wildcards' sources
 * (a mandatory wildcard, a hand joker, a table joker freed by breaking its block) are
 * taken in the order of ``wild_options`` from ``from`` on, so each set of sources is
 * tried once.
 */
static int64_t group_wilds(Search *S, Frame *F, const State *s, int rank, int reals, int joker_suits, int64_t extra,
                           int from) {
    if (cut_short(F, extra)) return INF;
    int64_t best = INF;
    int size = suits_in(reals) + suits_in(joker_suits);
    if (size >= 3) {
        Laid laid = {0, 0, 0, 0, 0, rank, reals, joker_suits, 0, 0};
        best = leaf(S, F, s, extra, STEP_MELD, &laid);
    }
    if (size == 4) return best;
    int missing = 0;
    while (((reals | joker_suits) >> missing) & 1) missing++;
    Option options[MAX_OPTIONS];
    int n = wild_options(S, s, options);
    for (int i = 0; i < n; i++) {
        if (options[i].source && options[i].source < from) continue;
        int64_t v = group_wilds(S, F, &options[i].state, rank, reals, joker_suits | 1 << missing,
                                extra + options[i].extra, options[i].source ? options[i].source : from);
        if (v < best) best = v;
    }
    return best;
}

/* Group members of suits ``suit``..3 beyond the real ones in ``reals``, then wildcards to 3 or 4 cards. */
static int64_t group_members(Search *S, Frame *F, const State *s, int rank, int suit, int skip_suit, int low,
                             int64_t extra, int reals) {
    if (cut_short(F, extra)) return INF;
    if (suit == 4) return group_wilds(S, F, s, rank, reals, 0, extra, 0);
    int64_t best = group_members(S, F, s, rank, suit + 1, skip_suit, low, extra, reals);
    if (suit == skip_suit) return best;
    int card = (rank - 1) * 4 + suit;
    if (card < low) return best;
    Option options[MAX_OPTIONS];
    int n = slot_options(S, s, card, low, 0, options);
    for (int i = 0; i < n; i++) {
        int64_t v = group_members(S, F, &options[i].state, rank, suit + 1, skip_suit, low, extra + options[i].extra,
                                  reals | (1 << suit));
        if (v < best) best = v;
    }
    return best;
}

/* Loose card ``card`` is the pivot; every card below ``low`` is placed already, and every
   step here costs ``base`` more. */
static int64_t expand_card(Search *S, Frame *F, const State *s, int card, int low, int64_t base) {
    const Problem *p = &S->problem;
    int64_t best = INF;
    State placed = *s;
    int optional = mand_of(s, card) == 0;
    if (optional) take_opt(&placed, card);
    else take_mand(&placed, card);
    int rank = card / 4 + 1, suit = card % 4;
    /* Groups: with a whole group block of three, or built from members and jokers. */
    for (int i = 0; i < p->ngroups_at[rank]; i++) {
        int b = p->groups_at[rank][i];
        const Block *block = &p->blocks[b];
        if (!(placed.mask & ((uint64_t)1 << b)) || block->ncards != 3 || (block->suits >> suit) & 1) continue;
        State next = placed;
        next.mask &= ~((uint64_t)1 << b);
        Laid laid = {0, 0, 0, 0, 0, rank, block->suits | (1 << suit), 0, 1, block->joker_mask};
        int64_t v = leaf(S, F, &next, base, STEP_MELD, &laid);
        if (v < best) best = v;
    }
    int64_t v = group_members(S, F, &placed, rank, 0, suit, low, base, 1 << suit);
    if (v < best) best = v;
    /* Runs: the card at its rank, and an ace also at the top. */
    v = runs_through(S, F, &placed, suit, rank, rank, low, base, 0, 0, 0);
    if (v < best) best = v;
    if (rank == 1 && p->max_position == 14) {
        v = runs_through(S, F, &placed, suit, 14, 14, low, base, 0, 0, 0);
        if (v < best) best = v;
    }
    /* Last, as the most costly choice: the card stays in the hand. */
    if (optional) {
        State left = *s;
        left.w[card >> 4] -= (uint64_t)1 << ((card & 15) * 4 + 2);
        v = leaf(S, F, &left, base + p->card_cost[card] * p->weight, STEP_LEAVE, NULL);
        if (v < best) best = v;
    }
    return best;
}

/* Intact block ``b`` kept: a run in every run through it, a group as it is or with its
   fourth suit. */
static int64_t keep_block(Search *S, Frame *F, const State *s, int b) {
    const Block *block = &S->problem.blocks[b];
    State kept = *s;
    kept.mask &= ~((uint64_t)1 << b);
    if (block->is_run)
        return runs_through(S, F, &kept, block->suit, block->first, block->last, block->key, 0, 1,
                            block->joker_places, 0);
    Laid laid = {0, 0, 0, 0, 0, block->rank, block->suits, 0, 1, block->joker_mask};
    int64_t best = leaf(S, F, &kept, 0, STEP_MELD, &laid);
    if (block->ncards != 3) return best;
    int missing = 0;
    while ((block->suits >> missing) & 1) missing++;
    int card = (block->rank - 1) * 4 + missing;
    Option options[MAX_OPTIONS];
    int n = slot_options(S, &kept, card, block->key, 1, options);
    for (int i = 0; i < n; i++) {
        laid.reals = block->suits | (options[i].joker ? 0 : 1 << missing);
        laid.joker_suits = options[i].joker ? 1 << missing : 0;
        int64_t v = leaf(S, F, &options[i].state, options[i].extra, STEP_MELD, &laid);
        if (v < best) best = v;
    }
    return best;
}

/* Where a redeclared block's holes are filled: the block, as the lowest item, kept in a
   run through its core, or in its group with the moved joker as the fourth suit. */
typedef struct {
    int b;
    const Core *core;
} Redeclared;

static int64_t after_redeclared(Search *S, Frame *F, const State *s, int64_t extra, const void *arg) {
    const Redeclared *at = (const Redeclared *)arg;
    const Block *block = &S->problem.blocks[at->b];
    const Core *core = at->core;
    if (block->is_run)
        return runs_through(S, F, s, block->suit, core->first, core->last, block->key, extra, 1, core->locked,
                            core->moved);
    int missing = 0;
    while ((block->suits >> missing) & 1) missing++;
    Laid laid = {0, 0, 0, 0, 0, block->rank, block->suits, 1 << missing, 1, core->locked};
    return leaf(S, F, s, extra, STEP_MELD, &laid);
}

/* Intact block ``b`` kept with some of its table jokers moved inside its meld (see
   ``Core``). */
static int64_t keep_redeclared(Search *S, Frame *F, const State *s, int b) {
    const Problem *p = &S->problem;
    const Block *block = &p->blocks[b];
    if (!block->joker_mask || (!block->is_run && block->ncards != 3)) return INF;
    int64_t best = INF;
    int sets[8], nsets = moved_sets(p, s, b, sets);
    for (int k = 0; k < nsets; k++) {
        State next = *s;
        Core core;
        if (redeclare(p, &next, b, sets[k], &core) != 0) continue;
        Redeclared at = {b, &core};
        int64_t v = fill_holes(S, F, &next, core.holes, core.nholes, block->key, 0, after_redeclared, &at);
        if (v < best) best = v;
    }
    return best;
}

/*
 * The lowest pending item is intact block ``b``: kept first, broken last.  Broken, its
 * lowest card is at once the lowest loose card, so its meld is chosen in the same step,
 * and that meld may not hold all the block's cards (keeping the block does better).
 */
static int64_t expand_block(Search *S, Frame *F, const State *s, int b) {
    const Problem *p = &S->problem;
    const Block *block = &p->blocks[b];
    int64_t best = keep_block(S, F, s, b), v = keep_redeclared(S, F, s, b);
    if (v < best) best = v;
    int avoid = F->avoid;
    for (int lock = 0; lock >= 0; lock = next_lock(p, s, b, lock)) {
        State broken = *s;
        if (break_block(p, &broken, b, lock)) {
            /* A table joker of the block is freed: its card may be the key no longer, and
               its cards may meet again in one meld (the joker declared otherwise), so the
               break is a step of its own. */
            F->avoid = -1;
            v = leaf(S, F, &broken, 1, STEP_LEAVE, NULL);
        } else {
            F->avoid = b;
            v = expand_card(S, F, &broken, block->key, block->key, 1);
        }
        F->avoid = avoid;
        if (v < best) best = v;
    }
    return best;
}

/* How many cards could share a meld with ``card``: the other suits of its rank and its
   neighbours two places either way in its suit, among ``present``. */
static int partners(const Problem *p, int card, uint64_t present) {
    int rank = card / 4 + 1, suit = card % 4;
    int count = suits_in((int)((present >> ((rank - 1) * 4)) & 15) & ~(1 << suit));
    for (int at = rank; at <= (rank == 1 ? p->max_position : rank); at += 13)
        for (int t = at - 2; t <= at + 2; t++)
            if (t != at && t >= 1 && t <= p->max_position && (present >> card_at(t, suit)) & 1) count++;
    return count;
}

/*
 * A loose card that fits some meld only by breaking a block, or -1; of several, the one
 * with the fewest partners (then the lowest).  It becomes the pivot ahead of the lowest
 * item: whether and how it is played decides which blocks break, so settling it first
 * cuts the search short where it cannot be placed.
 */
static int critical_card(const Problem *p, const State *s) {
    uint64_t loose = loose_cards(s), present = loose;
    for (uint64_t m = s->mask; m; m &= m - 1) present |= p->blocks[__builtin_ctzll(m)].cards_mask;
    int jokers = jokers_of(s) + wild_of(s);
    int all_jokers = jokers + freeable_in_blocks(p, s);
    int chosen = -1, fewest = 1 << 30;
    for (uint64_t m = loose; m; m &= m - 1) {
        int k = __builtin_ctzll(m);
        if (!placeable(p, k, present, all_jokers) || placeable_freely(p, s, k, loose, jokers, 0)) continue;
        int count = partners(p, k, present);
        if (count < fewest) {
            fewest = count;
            chosen = k;
        }
    }
    return chosen;
}

int lowest_card(const State *s) {
    for (int w = 0; w < 4; w++) {
        uint64_t bits = s->w[w];
        if (w == 3) bits &= 0xffff;
        if (bits) return w * 16 + __builtin_ctzll(bits) / 4;
    }
    return NKINDS;
}

/* Expands state ``s`` in frame ``F`` (its limit set, its best INF): the least total of
   its steps below the limit, or a lower bound of at least the limit. */
int64_t expand(Search *S, const State *s, Frame *F) {
    const Problem *p = &S->problem;
    F->best = INF;
    int card = lowest_card(s);
    int block = -1, key = NKINDS + 1;
    for (uint64_t m = s->mask; m; m &= m - 1) {
        int b = __builtin_ctzll(m);
        if (p->blocks[b].key < key) {
            key = p->blocks[b].key;
            block = b;
        }
    }
    if (card == NKINDS && block < 0) {
        /* The end: something from the hand was played, every freed joker was used and
           the opening (if any) is worth enough; the hand jokers left stay in the hand. */
        if (!played_of(s) || wild_of(s) || need_of(s)) return INF;
        return (int64_t)jokers_of(s) * p->joker_cost * p->weight;
    }
    int low = block >= 0 && key <= card ? key : card;
    int pivot = critical_card(p, s);
    if (pivot >= 0) expand_card(S, F, s, pivot, low, 0);
    else if (block >= 0 && key <= card) expand_block(S, F, s, block);
    else expand_card(S, F, s, card, low, 0);
    return F->best;
}
