/*
 * The CPython binding of the search: ``solver.fastpath._search``.
 *
 * It reads a call's arguments into a context's problem and root state (with the GIL),
 * runs the search (search_run, run.c) with the GIL released, and builds the result.
 * The module's state holds HiGHS once opened, the points program's capsule and a
 * small pool of contexts (each large, and its relaxation larger), taken and given
 * back under a lock: a call made while another runs, in another thread or from Python
 * code the first one ran, takes another context.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pythread.h>
#include <string.h>

#include "../_read_counts.h"
#include "search.h"

#define CONTEXT_POOL 8
#define RESOLVE_WORK 20   /* the default of ``resolve_work`` (see solve.c) */
#define ROUND_BUDGET 5000 /* the default of ``round_budget`` (see run.c) */

typedef struct {
    PyTypeObject *result_type;
    PyThread_type_lock lock; /* guards the pool */
    Search *pool[CONTEXT_POOL];
    int npool;
    LpLibrary library;       /* HiGHS, once ``set_lp_library`` opened it */
    PyObject *points_module; /* the points program's module, held while its capsule is used */
    const PointsApi *points; /* the points program, once imported */
    int points_tried;
} ModuleState;

static ModuleState *state_of(PyObject *module) { return (ModuleState *)PyModule_GetState(module); }

/* A context from the pool, or a new one (NULL: out of memory). */
static Search *take_context(ModuleState *st) {
    Search *S = NULL;
    PyThread_acquire_lock(st->lock, WAIT_LOCK);
    if (st->npool > 0) S = st->pool[--st->npool];
    PyThread_release_lock(st->lock);
    return S ? S : (Search *)calloc(1, sizeof(Search));
}

static void free_context(Search *S) {
    if (S->lp) {
        lp_free_solvers(S->lp);
        free(S->lp);
    }
    free(S);
}

static void give_back(ModuleState *st, Search *S) {
    PyThread_acquire_lock(st->lock, WAIT_LOCK);
    if (st->npool < CONTEXT_POOL) {
        st->pool[st->npool++] = S;
        S = NULL;
    }
    PyThread_release_lock(st->lock);
    if (S) free_context(S);
}

/* The points program's capsule, imported on the first search that may ask it (its
   module imports after this one's package); NULL when it cannot be. */
static const PointsApi *points_api(ModuleState *st) {
    if (!st->points_tried) {
        st->points_tried = 1;
        /* The capsule's PointsApi lives in that module's state: the module is held. */
        st->points_module = PyImport_ImportModule("solver.fastpath._points");
        if (st->points_module) st->points = (const PointsApi *)PyCapsule_Import(POINTS_API_CAPSULE, 0);
        if (!st->points) {
            PyErr_Clear();
            Py_CLEAR(st->points_module);
        }
    }
    return st->points;
}

/* The hand (``hand``, ``forced`` copies per card) and the costs into the root and the
   problem; 0, or -1 with an error set. */
static int read_hand(PyObject *hand, PyObject *costs, const int *forced, Problem *p, State *root) {
    /* Tuple copies: reading an item may run Python code (``__index__``) that changes a
       list given here, and a copy holds its own references. */
    PyObject *hand_seq = PySequence_Tuple(hand);
    if (!hand_seq) return -1;
    PyObject *cost_seq = PySequence_Tuple(costs);
    int failed = -1;
    if (!cost_seq) goto done;
    if (PyTuple_GET_SIZE(hand_seq) != NKINDS || PyTuple_GET_SIZE(cost_seq) != NKINDS) {
        PyErr_SetString(PyExc_ValueError, "hand and costs need one entry per card index (52)");
        goto done;
    }
    for (int k = 0; k < NKINDS; k++) {
        long count = PyLong_AsLong(PyTuple_GET_ITEM(hand_seq, k));
        if (count == -1 && PyErr_Occurred()) goto done;
        long long cost = PyLong_AsLongLong(PyTuple_GET_ITEM(cost_seq, k));
        if (cost == -1 && PyErr_Occurred()) goto done;
        if (count < 0 || count > MAX_COPIES) {
            PyErr_SetString(PyExc_ValueError, "a hand holds 0 to 3 copies of a card");
            goto done;
        }
        if (cost < 0 || cost > MAX_COST) {
            PyErr_Format(PyExc_ValueError, "the cost of card %d must be 0 to %d, not %lld", k, MAX_COST, cost);
            goto done;
        }
        root->w[k >> 4] |= (uint64_t)count << ((k & 15) * 4 + 2);
        root->w[k >> 4] |= (uint64_t)forced[k] << ((k & 15) * 4);
        p->card_cost[k] = cost;
    }
    failed = 0;
done:
    Py_DECREF(hand_seq);
    Py_XDECREF(cost_seq);
    return failed;
}

/* The table's melds (``blocks``) into the problem and the root; 0, or -1 with an error set. */
static int read_blocks(PyObject *blocks, Problem *p, State *root) {
    PyObject *block_seq = PySequence_Tuple(blocks); /* a copy, as in ``read_hand`` */
    if (!block_seq) return -1;
    Py_ssize_t n = PyTuple_GET_SIZE(block_seq);
    int failed = -1;
    if (n > MAXBLOCKS) {
        PyErr_SetString(PyExc_ValueError, "too many table melds for the fast path");
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        int is_run, a, b, c;
        unsigned long long joker_cards = 0;
        PyObject *item = PyTuple_GET_ITEM(block_seq, i);
        Py_ssize_t size = PyTuple_Check(item) ? PyTuple_GET_SIZE(item) : 0;
        if (size != 4 && size != 5) {
            PyErr_Format(PyExc_TypeError, "table meld %zd must be a tuple of 4 or 5 ints", i);
            goto done;
        }
        if (!PyArg_ParseTuple(item, size == 4 ? "iiii" : "iiiiK", &is_run, &a, &b, &c, &joker_cards)) goto done;
        if (problem_add_block(p, is_run, a, b, c, joker_cards) != 0) {
            PyErr_Format(PyExc_ValueError, "table meld %zd is not a meld the fast path can hold", i);
            goto done;
        }
        root->mask |= (uint64_t)1 << i;
    }
    failed = 0;
done:
    Py_DECREF(block_seq);
    return failed;
}

/* A call's arguments as one struct. */
typedef struct {
    int ace_high, jokers, wild, played, need;
    long long joker_cost;
    PyObject *hand, *costs, *blocks, *forced, *free, *values;
    Options options;
} Call;

/* The problem and root state of call ``call`` into context ``S``; 0, or -1 with an error set. */
static int read_problem(const Call *call, Search *S, State *root) {
    Problem *p = &S->problem;
    int forced[NKINDS];
    memset(root, 0, sizeof(*root));
    problem_start(p, call->ace_high);
    if (read_counts(call->forced, MAX_COPIES, forced, "forced") != 0 ||
        read_counts(call->free, MAX_COPIES, p->free, "free") != 0 ||
        read_counts(call->values, MAX_NEED, p->value, "values") != 0)
        return -1;
    if (call->wild < 0 || call->wild > MAX_JOKERS || call->need < 0 || call->need > MAX_NEED) {
        PyErr_Format(PyExc_ValueError, "wild must be 0 to 3 and need 0 to %d", MAX_NEED);
        return -1;
    }
    if (call->jokers < 0 || call->jokers > MAX_JOKERS) {
        PyErr_SetString(PyExc_ValueError, "at most 3 hand jokers");
        return -1;
    }
    if (read_hand(call->hand, call->costs, forced, p, root) != 0) return -1;
    if (call->joker_cost < 0 || call->joker_cost > MAX_COST) {
        PyErr_Format(PyExc_ValueError, "the joker cost must be 0 to %d, not %lld", MAX_COST, call->joker_cost);
        return -1;
    }
    root->w[3] |= (uint64_t)call->jokers << JOKER_SHIFT;
    root->w[3] |= (uint64_t)call->wild << WILD_SHIFT;
    root->w[3] |= (uint64_t)call->need << NEED_SHIFT;
    if (call->played) root->w[3] |= PLAYED_BIT;
    if (read_blocks(call->blocks, p, root) != 0) return -1;
    if (p->njokers + call->wild + call->jokers > MAX_JOKERS) {
        PyErr_SetString(PyExc_ValueError, "at most 3 jokers in all");
        return -1;
    }
    for (int k = 0; k < NKINDS; k++) {
        /* A state counts up to 3 mandatory and 3 optional copies of a card. */
        if (forced[k] + p->nholding[k] > MAX_COPIES) {
            PyErr_Format(PyExc_ValueError, "card %d: more than 3 copies that must be placed", k);
            return -1;
        }
    }
    problem_finish(p, call->jokers, call->wild, call->joker_cost);
    return 0;
}

/* The found melds as a list of tuples: a flag (holds a whole old meld), then the codes. */
static PyObject *melds_of(const Answer *answer) {
    PyObject *melds = PyList_New(answer->nmelds);
    if (!melds) return NULL;
    for (int m = 0; m < answer->nmelds; m++) {
        PyObject *meld = PyTuple_New(answer->meld_size[m] + 1);
        if (!meld) {
            Py_DECREF(melds);
            return NULL;
        }
        PyTuple_SET_ITEM(meld, 0, PyBool_FromLong(answer->meld_kept[m]));
        for (int i = 0; i < answer->meld_size[m]; i++)
            PyTuple_SET_ITEM(meld, i + 1, PyLong_FromLong(answer->melds[m][i]));
        PyList_SET_ITEM(melds, m, meld);
    }
    return melds;
}

static PyObject *freed_of(const Answer *answer) {
    PyObject *cards = PyTuple_New(answer->nfreed);
    if (!cards) return NULL;
    for (int i = 0; i < answer->nfreed; i++) PyTuple_SET_ITEM(cards, i, PyLong_FromLong(answer->freed[i]));
    return cards;
}

/* The result object: (status, primary, broken, melds) with the work as attributes. */
static PyObject *result_of(ModuleState *st, const Answer *answer) {
    if (answer->status == SEARCH_FAILED) {
        if (answer->failure) PyErr_SetString(PyExc_RuntimeError, answer->failure);
        else PyErr_NoMemory();
        return NULL;
    }
    int play = answer->status == SEARCH_PLAY;
    PyObject *melds = play ? melds_of(answer) : Py_NewRef(Py_None);
    PyObject *freed = freed_of(answer);
    PyObject *result = PyStructSequence_New(st->result_type);
    if (!melds || !freed || !result) {
        Py_XDECREF(melds);
        Py_XDECREF(freed);
        Py_XDECREF(result);
        return NULL;
    }
    PyObject *items[] = {
        PyLong_FromLong(answer->status),
        PyLong_FromLongLong(play ? (long long)answer->primary : -1),
        PyLong_FromLongLong(play ? (long long)answer->broken : -1),
        melds,
        freed,
        PyLong_FromSize_t(answer->expansions),
        PyLong_FromSize_t(answer->splits),
        PyBool_FromLong(answer->priced),
        PyLong_FromSize_t(answer->settled_raised),
        PyLong_FromSize_t(answer->resolves),
        PyLong_FromSize_t(answer->points_asked),
        PyLong_FromSize_t(answer->visits),
        PyLong_FromSize_t(answer->steps),
    };
    int n = (int)(sizeof(items) / sizeof(items[0])), missing = 0;
    for (int i = 0; i < n; i++) {
        if (!items[i]) missing = 1;
        PyStructSequence_SET_ITEM(result, i, items[i]);
    }
    if (missing) {
        Py_DECREF(result);
        return NULL;
    }
    return result;
}

PyDoc_STRVAR(search_doc,
             "search(ace_high, hand, costs, jokers, joker_cost, blocks, budget, *, forced=None,\n"
             "       free=None, wild=0, played=False, values=None, need=0, cap=-1, lp_after=-1,\n"
             "       resolve_work=20, points_floor=True, round_budget=5000)\n"
             "--\n\n"
             "The best final table: a SearchResult (status, primary, broken, melds).  ``hand`` and\n"
             "``costs`` give, per card index, the hand's copies that may be played and the cost of\n"
             "leaving one (0 to MAX_COST, as is ``joker_cost``); ``jokers`` hand jokers may be played.\n"
             "``blocks`` are the table's melds as (1, suit, first, last) runs or (0, rank, suit mask, 0)\n"
             "groups, with an optional fifth item: a bit per card a table joker in the meld stands for.\n"
             "Keywords: ``forced`` hand copies that must be played, per card; ``free`` how many table\n"
             "jokers declared as each card may be freed; ``wild`` jokers that must be played anywhere;\n"
             "``played`` whether a hand piece counts as played already; ``values`` and ``need``: the\n"
             "new melds must be worth ``need`` (the opening); ``cap``: only a cost below it counts;\n"
             "``lp_after``: after this many expansions (0: at once; -1: never) the states are also\n"
             "bounded by the linear relaxation's prices (see lp_bound.c; needs set_lp_library);\n"
             "``resolve_work``: with the prices, re-solve them for a state the search comes back to\n"
             "whose last expansion took this many expansions or more (-1: never; see solve.c);\n"
             "``points_floor``: in a position without jokers, ask the points program there too.\n"
             "``round_budget``: once the prices are asked for, a deepening round that takes more\n"
             "expansions than this answers OVER_BUDGET (-1: only ``budget`` counts; see run.c).\n"
             "``status`` is PLAY for a play (``primary``: the cost of the cards left; ``broken``: the\n"
             "old melds broken; ``melds`` as tuples of card indices, +JOKER_FLAG for a wildcard\n"
             "declared as that card, +LOCKED_FLAG for a table joker kept in its old meld, each\n"
             "starting with a flag: True when it holds a whole old meld), NO_PLAY when no legal play\n"
             "(below ``cap``) exists, OVER_BUDGET when the search needed more than ``budget``\n"
             "expansions (then primary and broken are -1 and melds is None).  The result's\n"
             "attributes tell the work: ``freed`` (the cards of the table jokers the play freed),\n"
             "``expansions``, ``splits``, ``priced``, ``settled``, ``resolves``, ``points_asked``,\n"
             "``visits``, ``steps``.\n"
             "The search runs without the GIL.");

static PyObject *search(PyObject *module, PyObject *args, PyObject *kwargs) {
    char *keywords[] = {"ace_high", "hand",   "costs", "jokers", "joker_cost", "blocks",
                               "budget",   "forced", "free",  "wild",   "played",     "values",
                               "need",     "cap",    "lp_after", "resolve_work", "points_floor",
                               "round_budget", NULL};
    Call call = {0,    0,    0,    0,    0,    0, NULL, NULL, NULL,
                 NULL, NULL, NULL, {0, -1, -1, RESOLVE_WORK, 1, ROUND_BUDGET}};
    long long budget, cap = -1, lp_after = -1, round_budget = ROUND_BUDGET;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "pOOiLOL|$OOipOiLLipL", keywords, &call.ace_high, &call.hand,
                                     &call.costs, &call.jokers, &call.joker_cost, &call.blocks, &budget,
                                     &call.forced, &call.free, &call.wild, &call.played, &call.values, &call.need,
                                     &cap, &lp_after, &call.options.resolve_work, &call.options.points_floor,
                                     &round_budget))
        return NULL;
    call.options.round_budget = round_budget < 0 ? -1 : round_budget;
    call.options.budget = budget > 0 ? (size_t)budget : 1;
    call.options.cap = cap;
    call.options.lp_after = lp_after;
    ModuleState *st = state_of(module);
    Search *S = take_context(st);
    if (!S) return PyErr_NoMemory();
    State root;
    PyObject *result = NULL;
    if (read_problem(&call, S, &root) == 0) {
        S->points_api = call.options.points_floor && S->problem.total_jokers == 0 ? points_api(st) : NULL;
        const LpLibrary *library = st->library.library ? &st->library : NULL;
        Answer *answer = (Answer *)malloc(sizeof(Answer));
        if (answer) {
            Py_BEGIN_ALLOW_THREADS
            search_run(S, &root, &call.options, library, answer);
            Py_END_ALLOW_THREADS
            result = result_of(st, answer);
            free(answer);
        } else {
            PyErr_NoMemory();
        }
    }
    give_back(st, S);
    return result;
}

static PyObject *set_lp_library(PyObject *module, PyObject *args) {
    const char *path;
    if (!PyArg_ParseTuple(args, "s", &path)) return NULL;
    ModuleState *st = state_of(module);
    char error[512];
    if (lp_library_open(&st->library, path, error, sizeof(error)) != 0) {
        PyErr_SetString(PyExc_OSError, error);
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"search", (PyCFunction)(void (*)(void))search, METH_VARARGS | METH_KEYWORDS, search_doc},
    {"set_lp_library", set_lp_library, METH_VARARGS,
     "Open HiGHS's shared library at the given path for the prices' bound (once; OSError\n"
     "when it cannot be used).  Without it the search runs without that bound."},
    {NULL, NULL, 0, NULL},
};

static PyStructSequence_Field result_fields[] = {
    {"status", "PLAY, NO_PLAY or OVER_BUDGET"},
    {"primary", "the cost of the cards left in the hand (-1 without a play)"},
    {"broken", "the old melds the play breaks (-1 without a play)"},
    {"melds", "the final melds as tuples (kept flag, piece codes...), or None"},
    {"freed", "the cards of the table jokers the play freed (one entry per joker)"},
    {"expansions", "the expansions the search made (for budgets; the walk back's not counted)"},
    {"splits", "states split into independent parts"},
    {"priced", "whether the search bounded its states with the relaxation's prices"},
    {"settled", "state bounds the prices of the program without wildcards raised"},
    {"resolves", "times the search re-solved its prices for a state"},
    {"points_asked", "questions the search asked the points program"},
    {"visits", "states the search was asked about, memo hits included (its work between expansions)"},
    {"steps", "steps the search finished (melds laid or cards left), cut by a bound or solved on"},
    {NULL, NULL},
};

static PyStructSequence_Desc result_desc = {
    "solver.fastpath._search.SearchResult",
    "A search's answer, (status, primary, broken, melds), with its work as attributes.", result_fields, 4,
};

/* The constants Python reads instead of copying them. */
static int add_constants(PyObject *module) {
    struct {
        const char *name;
        long value;
    } constants[] = {
        {"PLAY", SEARCH_PLAY},     {"NO_PLAY", SEARCH_NO_PLAY},   {"OVER_BUDGET", SEARCH_OVER_BUDGET},
        {"MAX_COST", MAX_COST},    {"MAX_MELDS", MAXBLOCKS},      {"JOKER_FLAG", JOKER_FLAG},
        {"LOCKED_FLAG", LOCKED_FLAG}, {"MAX_JOKERS", MAX_JOKERS}, {"MAX_COPIES", MAX_COPIES},
        {"MAX_NEED", MAX_NEED},    {"CARD_KINDS", NKINDS},        {"RESOLVE_WORK", RESOLVE_WORK},
        {"ROUND_BUDGET", ROUND_BUDGET},
    };
    for (size_t i = 0; i < sizeof(constants) / sizeof(constants[0]); i++)
        if (PyModule_AddIntConstant(module, constants[i].name, constants[i].value) < 0) return -1;
    return 0;
}

static int module_exec(PyObject *module) {
    ModuleState *st = state_of(module);
    st->lock = PyThread_allocate_lock();
    if (!st->lock) {
        PyErr_NoMemory();
        return -1;
    }
    st->result_type = PyStructSequence_NewType(&result_desc);
    if (!st->result_type) return -1;
    if (PyModule_AddObjectRef(module, "SearchResult", (PyObject *)st->result_type) < 0) return -1;
    return add_constants(module);
}

static int module_traverse(PyObject *module, visitproc visit, void *arg) {
    ModuleState *st = state_of(module);
    Py_VISIT(st->result_type);
    Py_VISIT(st->points_module);
    return 0;
}

static int module_clear(PyObject *module) {
    ModuleState *st = state_of(module);
    Py_CLEAR(st->result_type);
    st->points = NULL;
    Py_CLEAR(st->points_module);
    return 0;
}

static void module_free(void *module) {
    ModuleState *st = state_of((PyObject *)module);
    module_clear((PyObject *)module);
    for (int i = 0; i < st->npool; i++) free_context(st->pool[i]);
    st->npool = 0;
    if (st->lock) PyThread_free_lock(st->lock);
    st->lock = NULL;
    lp_library_close(&st->library);
}

static PyModuleDef_Slot slots[] = {
    {Py_mod_exec, module_exec},
    {0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    "solver.fastpath._search",
    "The fast path's exact partition search (see search.h for the method).",
    sizeof(ModuleState),
    methods,
    slots,
    module_traverse,
    module_clear,
    module_free,
};

PyMODINIT_FUNC PyInit__search(void) { return PyModuleDef_Init(&module_def); }
