/*
 * Reading card counts from Python, shared by the fast path's C modules (_search.c and
 * _points.c include it; each is its own extension, so the function is static in each).
 */

#ifndef RUMMY_READ_COUNTS_H
#define RUMMY_READ_COUNTS_H

#include <Python.h>

#ifndef NKINDS
#define NKINDS 52
#endif

/* Reads a sequence of 52 ints, each 0 to ``most``, into ``out`` (all 0 for None);
   ``what`` names it in the error. */
static int read_counts(PyObject *given, int most, int *out, const char *what) {
    for (int k = 0; k < NKINDS; k++) out[k] = 0;
    if (given == NULL || given == Py_None) return 0;
    /* A tuple copy: reading an item may run Python code (``__index__``) that changes a
       list given here, and the copy holds its own references. */
    PyObject *seq = PySequence_Tuple(given);
    if (!seq) return -1;
    if (PyTuple_GET_SIZE(seq) != NKINDS) {
        PyErr_Format(PyExc_ValueError, "%s needs one entry per card index (52)", what);
        Py_DECREF(seq);
        return -1;
    }
    for (int k = 0; k < NKINDS; k++) {
        long value = PyLong_AsLong(PyTuple_GET_ITEM(seq, k));
        if (value == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (value < 0 || value > most) {
            PyErr_Format(PyExc_ValueError, "%s: entry %d must be 0 to %d, not %ld", what, k, most, value);
            Py_DECREF(seq);
            return -1;
        }
        out[k] = (int)value;
    }
    Py_DECREF(seq);
    return 0;
}

#endif
