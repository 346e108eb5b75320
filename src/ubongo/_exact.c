/* ubongo._exact: the solver's searches (ubongo/solver.py) compiled, for speed.
 *
 * ubongo/solver.py is the reference: its docstrings explain the search (first empty cell,
 * the placements starting there, the walled-in cell, the last piece's lookup, remembered
 * states, counting forward with the states grouped by covered cells), and it is the core
 * used where this module is not built.  This file does the same searches over the same
 * input, what ubongo/bitboard.py computes: the area as a mask, each piece's placements as
 * (shape, anchors) pairs (Fits.anchors), the neighbour shifts of the grid (Grid.steps) and
 * which pieces may fill a one-cell hole.  Both cores try the same placements in the same
 * order: their counts, node counts and solutions are the same (tests/test_exact_core.py).
 *
 * Why C and not Cython or mypyc (docs/performance.md, "The compiled core"): it needs
 * nothing to build but a C compiler and Python's headers, and the inner loops are written
 * over memory laid out for them (the placements of a cell in one array of fixed-width
 * masks, the states in flat arrays with open-addressing indexes) instead of Python objects.
 *
 * A mask is W words of 64 bits, W = 1, 2 or 4 (areas of up to 256 bits on their grid);
 * _exact_width.h holds the searches and is compiled once per width.  A wider area, more than
 * 32 pieces or a count past 2**64 raise OverflowError, and the caller uses the Python core.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WORDS 4
#define MAX_BITS (64 * MAX_WORDS)
#define MAX_PIECES 32
#define MAX_STEPS 16

#define FAILED_MEMORY 1
#define FAILED_OVERFLOW 2

/* One direction to a neighbour: the cells it applies to (a triangle's kind), moved by
 * ``words`` whole words and ``bits`` bits, up (away from bit 0) or down. */
typedef struct {
    int up, words, bits;
    uint64_t cells[MAX_WORDS];
} Step;

/* One piece's placements whose first cell is one cell: masks[start .. end). */
typedef struct {
    int32_t piece;
    uint32_t bit;
    int32_t start, end;
} Group;

typedef struct Problem Problem;

/* The searches compiled for one width of masks. */
typedef struct {
    int words;
    int (*count_to)(const Problem *, uint64_t, uint64_t *, uint64_t *);
    int (*count_all)(const Problem *, uint32_t, uint64_t *, uint64_t *);
    void *(*walk_new)(const Problem *, uint32_t);
    int (*walk_next)(const Problem *, void *, uint64_t *);
    void (*walk_free)(void *);
} Width;

struct Problem {
    PyObject_HEAD
    const Width *width;
    int bits;         /* the area's bit length */
    int pieces;
    int test_holes;   /* whether a walled-in cell is looked for (not in 3D) */
    uint32_t all;     /* every piece, a bit each */
    uint32_t hole_fillers;
    uint64_t area[MAX_WORDS];
    int steps;
    Step step[MAX_STEPS];
    int32_t *first_group; /* [bits + 1]: cell k's groups are groups[first_group[k] .. [k + 1]) */
    Group *groups;        /* by first cell, then by piece */
    uint64_t *masks;      /* every placement, W words each, in the order of the groups */
    int32_t *group_of;    /* [piece * bits + cell]: the piece's group at that cell, or -1 */
    int32_t widest_group;
};

/* A 64-bit hash finaliser (the avalanche step of a well-known mixer): every input bit
 * moves about half the output bits, so that masks differing in a few cells spread out. */
static inline uint64_t mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

#define W 1
#define NAME(x) x##_1
#include "_exact_width.h"
#undef NAME
#undef W

#define W 2
#define NAME(x) x##_2
#include "_exact_width.h"
#undef NAME
#undef W

#define W 4
#define NAME(x) x##_4
#include "_exact_width.h"
#undef NAME
#undef W

/* --- Python ints <-> masks -------------------------------------------------------------- */

/* A non-negative int of at most MAX_BITS bits as words; -1 with OverflowError if wider. */
static int to_words(PyObject *v, uint64_t out[MAX_WORDS])
{
    unsigned char buf[8 * MAX_WORDS];
    if (!PyLong_Check(v)) {
        PyErr_SetString(PyExc_TypeError, "a mask must be an int");
        return -1;
    }
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t n = PyLong_AsNativeBytes(
        v, buf, sizeof buf,
        Py_ASNATIVEBYTES_LITTLE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER |
            Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    if (n < 0)
        return -1;
    if ((size_t)n > sizeof buf) {
        PyErr_SetString(PyExc_OverflowError, "a mask wider than the compiled core's");
        return -1;
    }
#else
    if (_PyLong_AsByteArray((PyLongObject *)v, buf, sizeof buf, 1, 0) < 0)
        return -1; /* OverflowError: negative, or too wide */
#endif
    for (int i = 0; i < MAX_WORDS; i++) {
        out[i] = 0;
        for (int b = 0; b < 8; b++)
            out[i] |= (uint64_t)buf[8 * i + b] << (8 * b);
    }
    return 0;
}

static PyObject *from_words(const uint64_t *w, int words)
{
    if (words == 1)
        return PyLong_FromUnsignedLongLong(w[0]);
    unsigned char buf[8 * MAX_WORDS];
    for (int i = 0; i < words; i++)
        for (int b = 0; b < 8; b++)
            buf[8 * i + b] = (unsigned char)(w[i] >> (8 * b));
#if PY_VERSION_HEX >= 0x030D0000
    return PyLong_FromUnsignedNativeBytes(buf, 8 * words, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    return _PyLong_FromByteArray(buf, 8 * words, 1, 0);
#endif
}

static int bit_length(const uint64_t w[MAX_WORDS])
{
    for (int i = MAX_WORDS - 1; i >= 0; i--)
        if (w[i])
            return 64 * i + 64 - __builtin_clzll(w[i]);
    return 0;
}

/* --- building a problem ----------------------------------------------------------------- */

/* One placement while the tables are built: a piece's shape moved to its first cell. */
typedef struct {
    int32_t cell, piece;
    uint64_t mask[MAX_WORDS];
} Placed;

/* shape << k, over MAX_WORDS words (k < MAX_BITS). */
static void shift_up(const uint64_t shape[MAX_WORDS], int k, uint64_t out[MAX_WORDS])
{
    int q = k / 64, r = k % 64;
    for (int i = 0; i < MAX_WORDS; i++) {
        uint64_t v = i - q >= 0 ? shape[i - q] << r : 0;
        if (r && i - q - 1 >= 0)
            v |= shape[i - q - 1] >> (64 - r);
        out[i] = v;
    }
}

/* Every placement of every piece, in the order of the Python core's Fits.starting_at: by
 * piece, then by shape (the anchors' order), then by first cell; NULL with an exception. */
static Placed *placements(Problem *p, PyObject *anchors, Py_ssize_t *count)
{
    Py_ssize_t n = 0, cap = 64;
    Placed *out = malloc(cap * sizeof(Placed));
    if (!out)
        return (Placed *)PyErr_NoMemory();
    for (int piece = 0; piece < p->pieces; piece++) {
        PyObject *fits = PySequence_Fast_GET_ITEM(anchors, piece); /* borrowed */
        PyObject *key, *value;
        Py_ssize_t pos = 0;
        if (!PyDict_Check(fits)) {
            PyErr_SetString(PyExc_TypeError, "each piece's anchors must be a dict");
            goto failed;
        }
        while (PyDict_Next(fits, &pos, &key, &value)) {
            uint64_t shape[MAX_WORDS], at[MAX_WORDS];
            if (to_words(key, shape) < 0 || to_words(value, at) < 0)
                goto failed;
            int top = bit_length(shape);
            for (int word = 0; word < MAX_WORDS; word++) {
                for (uint64_t left = at[word]; left; left &= left - 1) { /* each anchor */
                    int k = 64 * word + __builtin_ctzll(left);
                    if (top + k > p->bits) {
                        PyErr_SetString(PyExc_ValueError, "a placement outside the area");
                        goto failed;
                    }
                    if (n == cap) {
                        Placed *more = realloc(out, 2 * cap * sizeof(Placed));
                        if (!more) {
                            PyErr_NoMemory();
                            goto failed;
                        }
                        out = more;
                        cap *= 2;
                    }
                    out[n].cell = k;
                    out[n].piece = piece;
                    shift_up(shape, k, out[n].mask);
                    for (int i = 0; i < MAX_WORDS; i++)
                        if (out[n].mask[i] & ~p->area[i]) {
                            PyErr_SetString(PyExc_ValueError, "a placement outside the area");
                            goto failed;
                        }
                    n++;
                }
            }
        }
    }
    *count = n;
    return out;
failed:
    free(out);
    return NULL;
}

/* The tables of the placements by first cell (a stable counting sort of ``placed`` by
 * cell, keeping each cell's placements by piece and shape) and their groups; -1 with an
 * exception. */
static int tables(Problem *p, const Placed *placed, Py_ssize_t n)
{
    int words = p->width->words;
    int32_t *at = calloc((size_t)p->bits + 1, sizeof(int32_t));
    p->first_group = calloc((size_t)p->bits + 1, sizeof(int32_t));
    p->groups = malloc(((size_t)n + 1) * sizeof(Group));
    p->masks = malloc(((size_t)n + 1) * words * sizeof(uint64_t));
    p->group_of = malloc(((size_t)p->pieces * p->bits + 1) * sizeof(int32_t));
    if (!at || !p->first_group || !p->groups || !p->masks || !p->group_of) {
        free(at);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        at[placed[i].cell + 1]++;
    for (int k = 0; k < p->bits; k++)
        at[k + 1] += at[k];
    int32_t *order = malloc(((size_t)n + 1) * sizeof(int32_t));
    if (!order) {
        free(at);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        order[at[placed[i].cell]++] = (int32_t)i;
    for (size_t i = 0; i < (size_t)p->pieces * p->bits; i++)
        p->group_of[i] = -1;
    int32_t groups = 0;
    p->widest_group = 0;
    for (Py_ssize_t j = 0; j < n; j++) {
        const Placed *pl = &placed[order[j]];
        memcpy(p->masks + (size_t)j * words, pl->mask, words * sizeof(uint64_t));
        Group *last = groups ? &p->groups[groups - 1] : NULL;
        if (last && last->piece == pl->piece && placed[order[last->start]].cell == pl->cell) {
            last->end++;
        } else {
            p->groups[groups] = (Group){pl->piece, (uint32_t)1 << pl->piece, (int32_t)j,
                                        (int32_t)j + 1};
            p->group_of[(size_t)pl->piece * p->bits + pl->cell] = groups;
            groups++;
        }
        last = &p->groups[groups - 1];
        if (last->end - last->start > p->widest_group)
            p->widest_group = last->end - last->start;
    }
    /* first_group[k]: the first group of cell k or after (cells without any share it) */
    int32_t g = 0;
    for (int k = 0; k <= p->bits; k++) {
        while (g < groups && placed[order[p->groups[g].start]].cell < k)
            g++;
        p->first_group[k] = g;
    }
    free(order);
    free(at);
    return 0;
}

static int read_steps(Problem *p, PyObject *steps)
{
    PyObject *seq = PySequence_Fast(steps, "steps must be a sequence of (cells, shift)");
    if (!seq)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > MAX_STEPS) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_OverflowError, "more neighbour steps than the compiled core's");
        return -1;
    }
    p->steps = (int)n;
    for (Py_ssize_t s = 0; s < n; s++) {
        PyObject *cells, *shift;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, s), "OO", &cells, &shift) ||
            to_words(cells, p->step[s].cells) < 0) {
            Py_DECREF(seq);
            return -1;
        }
        long d = PyLong_AsLong(shift);
        if (d == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        long size = d < 0 ? -d : d;
        if (size > MAX_BITS)
            size = MAX_BITS; /* (every cell moves out) */
        p->step[s].up = d > 0;
        p->step[s].words = (int)(size / 64);
        p->step[s].bits = (int)(size % 64);
    }
    Py_DECREF(seq);
    return 0;
}

static PyObject *Problem_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"area", "anchors", "hole_fillers", "steps", NULL};
    PyObject *area, *anchors, *fillers, *steps;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOO:Problem", kwlist, &area, &anchors,
                                     &fillers, &steps))
        return NULL;
    Problem *p = (Problem *)type->tp_alloc(type, 0);
    if (!p)
        return NULL;
    PyObject *seq = NULL;
    Placed *placed = NULL;
    if (to_words(area, p->area) < 0)
        goto failed;
    p->bits = bit_length(p->area);
    if (p->bits == 0) {
        PyErr_SetString(PyExc_ValueError, "an empty area");
        goto failed;
    }
    p->width = p->bits <= 64 ? &width_1 : p->bits <= 128 ? &width_2 : &width_4;
    seq = PySequence_Fast(anchors, "anchors must be a sequence of dicts");
    if (!seq)
        goto failed;
    Py_ssize_t pieces = PySequence_Fast_GET_SIZE(seq);
    if (pieces < 1 || pieces > MAX_PIECES) {
        PyErr_SetString(PyExc_OverflowError, "1 to 32 pieces in the compiled core");
        goto failed;
    }
    p->pieces = (int)pieces;
    p->all = pieces == 32 ? 0xffffffffu : ((uint32_t)1 << pieces) - 1;
    long long fill = PyLong_AsLongLong(fillers);
    if (fill == -1 && PyErr_Occurred())
        goto failed;
    p->test_holes = fill != -1; /* -1: every piece fills a hole, as in 3D */
    p->hole_fillers = (uint32_t)fill & p->all;
    if (read_steps(p, steps) < 0)
        goto failed;
    Py_ssize_t n;
    placed = placements(p, seq, &n);
    if (!placed || tables(p, placed, n) < 0)
        goto failed;
    free(placed);
    Py_DECREF(seq);
    return (PyObject *)p;
failed:
    free(placed);
    Py_XDECREF(seq);
    Py_DECREF(p);
    return NULL;
}

static void Problem_dealloc(Problem *p)
{
    free(p->first_group);
    free(p->groups);
    free(p->masks);
    free(p->group_of);
    Py_TYPE(p)->tp_free((PyObject *)p);
}

static PyObject *failure(int failed)
{
    if (failed == FAILED_MEMORY)
        return PyErr_NoMemory();
    PyErr_SetString(PyExc_OverflowError, "a count past 2**64: the Python core counts it");
    return NULL;
}

static PyObject *Problem_count(Problem *p, PyObject *arg)
{
    int overflow;
    long long limit = PyLong_AsLongLongAndOverflow(arg, &overflow);
    if (limit == -1 && PyErr_Occurred())
        return NULL;
    /* (a limit below 0 stops where 0 does; one past 2**63 is never reached) */
    uint64_t need = overflow > 0 ? UINT64_MAX : overflow < 0 || limit < 0 ? 0 : (uint64_t)limit;
    uint64_t found = 0, nodes = 0;
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = p->width->count_to(p, need, &found, &nodes);
    Py_END_ALLOW_THREADS
    if (failed)
        return failure(failed);
    return Py_BuildValue("(KK)", (unsigned long long)found, (unsigned long long)nodes);
}

/* The optional argument ``pieces`` of count_all and solutions: the pieces to place, a bit
 * each (default: all of them; the card maker tries many sets of pieces on one area with one
 * problem made for all of them); 0 with an exception if it is not some of the pieces. */
static uint32_t pieces_to_place(const Problem *p, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs > 1) {
        PyErr_SetString(PyExc_TypeError, "at most one argument (pieces)");
        return 0;
    }
    if (nargs == 0)
        return p->all;
    unsigned long long chosen = PyLong_AsUnsignedLongLong(args[0]);
    if (chosen == (unsigned long long)-1 && PyErr_Occurred())
        return 0;
    if (!chosen || chosen & ~(unsigned long long)p->all) {
        PyErr_SetString(PyExc_ValueError, "pieces must be some of the problem's pieces");
        return 0;
    }
    return (uint32_t)chosen;
}

static PyObject *Problem_count_all(Problem *p, PyObject *const *args, Py_ssize_t nargs)
{
    uint32_t left = pieces_to_place(p, args, nargs);
    if (!left)
        return NULL;
    uint64_t found = 0, nodes = 0;
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = p->width->count_all(p, left, &found, &nodes);
    Py_END_ALLOW_THREADS
    if (failed)
        return failure(failed);
    return Py_BuildValue("(KK)", (unsigned long long)found, (unsigned long long)nodes);
}

/* --- where each orientation of a piece fits (bitboard.Fits.on) -------------------------- */

/* anchors(area, kinds, shapes): bitboard.Fits.on's loop, the same dict made the same way:
 * for each (kind, shape, offsets) of the piece on the grid, the anchors are the cells of
 * that kind where every cell anchor + offset is in the area, the AND of the area shifted
 * down by each offset. */
static PyObject *exact_anchors(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *area_obj, *kinds, *shapes;
    if (!PyArg_ParseTuple(args, "OO!O:anchors", &area_obj, &PyDict_Type, &kinds, &shapes))
        return NULL;
    uint64_t area[MAX_WORDS];
    if (to_words(area_obj, area) < 0)
        return NULL;
    int bits = bit_length(area);
    int words = bits <= 64 ? 1 : bits <= 128 ? 2 : 4;
    PyObject *seq = PySequence_Fast(shapes, "shapes must be a sequence");
    PyObject *out = seq ? PyDict_New() : NULL;
    if (!out)
        goto failed;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        PyObject *kind, *shape, *offsets;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "OOO", &kind, &shape, &offsets))
            goto failed;
        PyObject *cells = PyDict_GetItemWithError(kinds, kind); /* borrowed */
        if (!cells) {
            if (PyErr_Occurred())
                goto failed;
            continue; /* no cell of its first cell's kind */
        }
        uint64_t fits[MAX_WORDS];
        if (to_words(cells, fits) < 0 || !PyList_Check(offsets))
            goto failed;
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(offsets); j++) {
            long o = PyLong_AsLong(PyList_GET_ITEM(offsets, j));
            if (o < 0 || o >= MAX_BITS) {
                if (!PyErr_Occurred())
                    memset(fits, 0, sizeof fits); /* (every cell shifted out) */
                else
                    goto failed;
                break;
            }
            int q = (int)o / 64, r = (int)o % 64;
            for (int w = 0; w < MAX_WORDS; w++) {
                uint64_t v = w + q < MAX_WORDS ? area[w + q] >> r : 0;
                if (r && w + q + 1 < MAX_WORDS)
                    v |= area[w + q + 1] << (64 - r);
                fits[w] &= v;
            }
        }
        if (!bit_length(fits))
            continue;
        PyObject *before = PyDict_GetItemWithError(out, shape); /* borrowed */
        if (before) { /* (a turned triangle piece: the same mask from a cell of each kind) */
            uint64_t more[MAX_WORDS];
            if (to_words(before, more) < 0)
                goto failed;
            for (int w = 0; w < MAX_WORDS; w++)
                fits[w] |= more[w];
        } else if (PyErr_Occurred()) {
            goto failed;
        }
        PyObject *value = from_words(fits, words);
        if (!value || PyDict_SetItem(out, shape, value) < 0) {
            Py_XDECREF(value);
            goto failed;
        }
        Py_DECREF(value);
    }
    Py_DECREF(seq);
    return out;
failed:
    Py_XDECREF(seq);
    Py_XDECREF(out);
    return NULL;
}

/* --- laying out a grid (bitboard.Grid) --------------------------------------------------- */

/* The axes of a grid, fastest first: by extent, then by number (Grid's sorted order). */
static void axes_in_order(int dims, const long *extent, int *order)
{
    for (int a = 0; a < dims; a++)
        order[a] = a;
    for (int i = 1; i < dims; i++)
        for (int j = i; j > 0 && extent[order[j]] < extent[order[j - 1]]; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
}

/* layout(cells, triangle, margin): bitboard.Grid's layout of an area, the same numbers made
 * the same way: (strides, start, each cell's bit number, the area's mask, the mask of the
 * upward triangles).  OverflowError when a bit number reaches MAX_BITS. */
static PyObject *exact_layout(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *cells;
    int triangle;
    long margin;
    if (!PyArg_ParseTuple(args, "O!pl:layout", &PyTuple_Type, &cells, &triangle, &margin))
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(cells);
    if (n == 0) {
        PyErr_SetString(PyExc_ValueError, "no cells to lay out");
        return NULL;
    }
    int dims = triangle ? 2 : (int)PyTuple_Size(PyTuple_GET_ITEM(cells, 0));
    if (dims != 2 && dims != 3) {
        PyErr_SetString(PyExc_ValueError, "cells of 2 or 3 coordinates");
        return NULL;
    }
    long(*digits)[3] = malloc((size_t)n * sizeof *digits);
    if (!digits)
        return PyErr_NoMemory();
    PyObject *numbers = NULL, *out = NULL;
    long low[3], high[3], extent[3], stride[3], start[3];
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *cell = PyTuple_GET_ITEM(cells, i);
        Py_ssize_t size = PyTuple_Check(cell) ? PyTuple_GET_SIZE(cell) : -1;
        if (size != (triangle ? 3 : dims)) {
            PyErr_SetString(PyExc_ValueError, "a cell of the wrong shape");
            goto done;
        }
        long c[3];
        for (Py_ssize_t k = 0; k < size; k++) {
            c[k] = PyLong_AsLong(PyTuple_GET_ITEM(cell, k));
            if (c[k] == -1 && PyErr_Occurred())
                goto done;
        }
        if (triangle) { /* (a triangle's kind folds into its first coordinate: 2a + s) */
            c[0] = 2 * c[0] + c[2];
        }
        for (int a = 0; a < dims; a++) {
            digits[i][a] = c[a];
            if (i == 0 || c[a] < low[a])
                low[a] = c[a];
            if (i == 0 || c[a] > high[a])
                high[a] = c[a];
        }
    }
    int order[3];
    for (int a = 0; a < dims; a++) {
        extent[a] = high[a] - low[a] + 1;
        start[a] = low[a];
    }
    axes_in_order(dims, extent, order);
    long next = 1;
    for (int i = 0; i < dims; i++) {
        if (extent[order[i]] + margin > (1L << 20)) { /* (the product below stays in 60 bits) */
            PyErr_SetString(PyExc_OverflowError, "an area wider than the compiled core's");
            goto done;
        }
        stride[order[i]] = next;
        next *= extent[order[i]] + margin;
    }
    /* the narrower end of the other axes first, as Grid does (a negative stride) */
    for (int i = 1; i < dims; i++) {
        int a = order[i];
        Py_ssize_t at_low = 0, at_high = 0;
        for (Py_ssize_t j = 0; j < n; j++) {
            at_low += digits[j][a] == low[a];
            at_high += digits[j][a] == high[a];
        }
        if (at_high < at_low) {
            stride[a] = -stride[a];
            start[a] = high[a];
        }
    }
    uint64_t area[MAX_WORDS] = {0}, ups[MAX_WORDS] = {0};
    numbers = PyList_New(n);
    if (!numbers)
        goto done;
    for (Py_ssize_t j = 0; j < n; j++) {
        long b = 0;
        for (int a = 0; a < dims; a++)
            b += (digits[j][a] - start[a]) * stride[a];
        if (b < 0 || b >= MAX_BITS) {
            PyErr_SetString(PyExc_OverflowError, "an area wider than the compiled core's");
            goto done;
        }
        area[b / 64] |= (uint64_t)1 << (b % 64);
        if (triangle && !(digits[j][0] & 1))
            ups[b / 64] |= (uint64_t)1 << (b % 64);
        PyObject *number = PyLong_FromLong(b);
        if (!number)
            goto done;
        PyList_SET_ITEM(numbers, j, number);
    }
    int words = bit_length(area) <= 64 ? 1 : bit_length(area) <= 128 ? 2 : 4;
    PyObject *area_obj = from_words(area, words), *ups_obj = from_words(ups, words);
    if (area_obj && ups_obj && dims == 2)
        out = Py_BuildValue("((ll)[ll]OOO)", stride[0], stride[1], start[0], start[1], numbers,
                            area_obj, ups_obj);
    else if (area_obj && ups_obj)
        out = Py_BuildValue("((lll)[lll]OOO)", stride[0], stride[1], stride[2], start[0],
                            start[1], start[2], numbers, area_obj, ups_obj);
    Py_XDECREF(area_obj);
    Py_XDECREF(ups_obj);
done:
    free(digits);
    Py_XDECREF(numbers);
    return out;
}

/* --- where the next piece of a growing area goes (puzzles.shapes.touching_most) ---------
 * The card maker grows an area piece by piece, each put where it shares the most edges with
 * the pieces down.  Its Python (ubongo/puzzles/shapes.py) is the reference: the placements
 * of each orientation that fit the free cells of a box and touch the union are the AND and
 * the OR of shifted masks; each one's edges shared are summed from three bit planes of the
 * cells' counts of union neighbours.  The box may be wider than the searches' masks, so
 * these masks have as many words as it needs. */

/* A non-negative int as ``words`` words (zero-filled); -1 with an exception if wider. */
static int to_wide(PyObject *v, uint64_t *out, Py_ssize_t words)
{
    Py_ssize_t size = 8 * words;
    unsigned char *buf = PyMem_Malloc((size_t)size);
    if (!buf) {
        PyErr_NoMemory();
        return -1;
    }
    int failed = 0;
    if (!PyLong_Check(v)) {
        PyErr_SetString(PyExc_TypeError, "a mask must be an int");
        failed = 1;
    } else {
#if PY_VERSION_HEX >= 0x030D0000
        Py_ssize_t n = PyLong_AsNativeBytes(
            v, buf, size,
            Py_ASNATIVEBYTES_LITTLE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER |
                Py_ASNATIVEBYTES_REJECT_NEGATIVE);
        if (n < 0 || n > size) {
            if (n > size)
                PyErr_SetString(PyExc_OverflowError, "a mask wider than its box");
            failed = 1;
        }
#else
        failed = _PyLong_AsByteArray((PyLongObject *)v, buf, (size_t)size, 1, 0) < 0;
#endif
    }
    for (Py_ssize_t i = 0; !failed && i < words; i++) {
        out[i] = 0;
        for (int b = 0; b < 8; b++)
            out[i] |= (uint64_t)buf[8 * i + b] << (8 * b);
    }
    PyMem_Free(buf);
    return failed ? -1 : 0;
}

/* Whether bit k of a mask of ``words`` words is set (0 past its end). */
static inline int bit_at(const uint64_t *m, Py_ssize_t words, Py_ssize_t k)
{
    return k / 64 < words && (m[k / 64] >> (k % 64) & 1);
}

/* out[w] op= (m >> o)[w] for every word, op being AND (and_ 1) or OR. */
static void shifted_into(uint64_t *out, const uint64_t *m, Py_ssize_t words, long o, int and_)
{
    Py_ssize_t q = o / 64;
    int r = (int)(o % 64);
    for (Py_ssize_t w = 0; w < words; w++) {
        uint64_t v = w + q < words ? m[w + q] >> r : 0;
        if (r && w + q + 1 < words)
            v |= m[w + q + 1] << (64 - r);
        out[w] = and_ ? out[w] & v : out[w] | v;
    }
}

/* One placement that touches the union: its shape (by number), anchor and edges shared. */
typedef struct {
    Py_ssize_t shape, anchor;
    long edges;
} Touching;

/* touching(free, near, planes, of_kind, shapes, slack): the placements of the touching_most
 * loop whose edges shared are the most, or up to slack fewer, as ints (shape << anchor), in
 * the order found (by shape, then anchor). */
static PyObject *exact_touching(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *free_obj, *near_obj, *planes, *of_kind, *shapes;
    long slack;
    if (!PyArg_ParseTuple(args, "OOO!O!O!l:touching", &free_obj, &near_obj, &PyTuple_Type,
                          &planes, &PyList_Type, &of_kind, &PyList_Type, &shapes, &slack))
        return NULL;
    if (PyTuple_GET_SIZE(planes) != 3) {
        PyErr_SetString(PyExc_ValueError, "three bit planes");
        return NULL;
    }
    /* words enough for the widest mask given (the box's cells of a kind reach its end) */
    Py_ssize_t bits = 1;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(of_kind); i++) {
        PyObject *m = PyList_GET_ITEM(of_kind, i);
        if (!PyLong_Check(m))
            return PyErr_Format(PyExc_TypeError, "a mask must be an int");
        Py_ssize_t n = (Py_ssize_t)_PyLong_NumBits(m);
        if (n < 0)
            return NULL;
        bits = n > bits ? n : bits;
    }
    Py_ssize_t words = bits / 64 + 1, nmasks = 5 + PyList_GET_SIZE(of_kind) + 2;
    uint64_t *mem = PyMem_Calloc((size_t)(nmasks * words), sizeof(uint64_t));
    Touching *found = NULL;
    Py_ssize_t nfound = 0, cap = 0;
    PyObject *out = NULL;
    if (!mem)
        return PyErr_NoMemory();
    uint64_t *free_m = mem, *near = mem + words, *plane = mem + 2 * words;
    uint64_t *fits = mem + 5 * words, *touches = mem + 6 * words, *kinds = mem + 7 * words;
    if (to_wide(free_obj, free_m, words) < 0 || to_wide(near_obj, near, words) < 0)
        goto done;
    for (int i = 0; i < 3; i++)
        if (to_wide(PyTuple_GET_ITEM(planes, i), plane + i * words, words) < 0)
            goto done;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(of_kind); i++)
        if (to_wide(PyList_GET_ITEM(of_kind, i), kinds + i * words, words) < 0)
            goto done;
    long best = -1;
    for (Py_ssize_t s = 0; s < PyList_GET_SIZE(shapes); s++) {
        PyObject *kind_obj, *shape, *offsets;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(shapes, s), "OOO!", &kind_obj, &shape, &PyList_Type,
                              &offsets))
            goto done;
        long kind = PyLong_AsLong(kind_obj);
        if (kind < 0 || kind >= PyList_GET_SIZE(of_kind)) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "a shape's kind has no cells");
            goto done;
        }
        Py_ssize_t cells = PyList_GET_SIZE(offsets);
        long offset[64];
        if (cells > 64) {
            PyErr_SetString(PyExc_OverflowError, "more than 65 cells in a piece");
            goto done;
        }
        for (Py_ssize_t w = 0; w < words; w++) {
            fits[w] = kinds[kind * words + w] & free_m[w];
            touches[w] = near[w];
        }
        for (Py_ssize_t j = 0; j < cells; j++) {
            offset[j] = PyLong_AsLong(PyList_GET_ITEM(offsets, j));
            if (offset[j] < 0) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "offsets are not negative");
                goto done;
            }
            shifted_into(fits, free_m, words, offset[j], 1);
            shifted_into(touches, near, words, offset[j], 0);
        }
        for (Py_ssize_t w = 0; w < words; w++) {
            for (uint64_t at = fits[w] & touches[w]; at; at &= at - 1) { /* each anchor */
                Py_ssize_t k = 64 * w + __builtin_ctzll(at);
                long edges = 0;
                for (int i = 0; i < 3; i++) {
                    long n = bit_at(plane + i * words, words, k);
                    for (Py_ssize_t j = 0; j < cells; j++)
                        n += bit_at(plane + i * words, words, k + offset[j]);
                    edges += n << i;
                }
                if (nfound == cap) {
                    Py_ssize_t more = cap ? 2 * cap : 64;
                    Touching *bigger = PyMem_Realloc(found, (size_t)more * sizeof(Touching));
                    if (!bigger) {
                        PyErr_NoMemory();
                        goto done;
                    }
                    found = bigger;
                    cap = more;
                }
                found[nfound++] = (Touching){s, k, edges};
                best = edges > best ? edges : best;
            }
        }
    }
    out = PyList_New(0);
    for (Py_ssize_t i = 0; out && i < nfound; i++) {
        if (found[i].edges < best - slack)
            continue;
        PyObject *shape = PyTuple_GET_ITEM(PyList_GET_ITEM(shapes, found[i].shape), 1);
        PyObject *k = PyLong_FromSsize_t(found[i].anchor);
        PyObject *placed = k ? PyNumber_Lshift(shape, k) : NULL;
        Py_XDECREF(k);
        if (!placed || PyList_Append(out, placed) < 0)
            Py_CLEAR(out);
        Py_XDECREF(placed);
    }
done:
    PyMem_Free(mem);
    PyMem_Free(found);
    return out;
}

static PyMethodDef module_methods[] = {
    {"layout", exact_layout, METH_VARARGS,
     "layout(cells, triangle, margin) -> (strides, start, numbers, area, ups): bitboard.Grid's "
     "layout."},
    {"anchors", exact_anchors, METH_VARARGS,
     "anchors(area, kinds, shapes) -> {shape: anchors}: bitboard.Fits.on's loop."},
    {"touching", exact_touching, METH_VARARGS,
     "touching(free, near, planes, of_kind, shapes, slack) -> [placement]: the loop of "
     "puzzles.shapes.touching_most."},
    {NULL, NULL, 0, NULL},
};

/* --- the solutions' iterator ------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    Problem *problem;
    void *walk;
    uint32_t left; /* the pieces placed */
    uint64_t chosen[MAX_PIECES * MAX_WORDS];
} Solutions;

static PyTypeObject SolutionsType;

static PyObject *Problem_solutions(Problem *p, PyObject *const *args, Py_ssize_t nargs)
{
    uint32_t left = pieces_to_place(p, args, nargs);
    if (!left)
        return NULL;
    Solutions *s = PyObject_New(Solutions, &SolutionsType);
    if (!s)
        return NULL;
    s->left = left;
    s->walk = p->width->walk_new(p, left);
    if (!s->walk) {
        s->problem = NULL;
        Py_DECREF(s);
        return PyErr_NoMemory();
    }
    Py_INCREF(p);
    s->problem = p;
    memset(s->chosen, 0, sizeof s->chosen);
    return (PyObject *)s;
}

static void Solutions_dealloc(Solutions *s)
{
    if (s->problem) {
        s->problem->width->walk_free(s->walk);
        Py_DECREF(s->problem);
    }
    PyObject_Free(s);
}

static PyObject *Solutions_next(Solutions *s)
{
    const Problem *p = s->problem;
    int words = p->width->words;
    int found = p->width->walk_next(p, s->walk, s->chosen);
    if (found == 0)
        return NULL; /* StopIteration */
    if (found != 1)
        return PyErr_NoMemory();
    PyObject *masks = PyTuple_New(__builtin_popcount(s->left));
    if (!masks)
        return NULL;
    Py_ssize_t n = 0;
    for (int i = 0; i < p->pieces; i++) {
        if (!(s->left >> i & 1))
            continue;
        PyObject *mask = from_words(s->chosen + (size_t)i * words, words);
        if (!mask) {
            Py_DECREF(masks);
            return NULL;
        }
        PyTuple_SET_ITEM(masks, n++, mask);
    }
    return masks;
}

static PyObject *Problem_words(Problem *p, void *Py_UNUSED(closure))
{
    return PyLong_FromLong(p->width->words);
}

static PyMethodDef Problem_methods[] = {
    {"count", (PyCFunction)Problem_count, METH_O,
     "count(limit) -> (solutions, nodes): the depth-first count up to limit "
     "(ExactCover._count)."},
    {"count_all", (PyCFunction)(void (*)(void))Problem_count_all, METH_FASTCALL,
     "count_all(pieces=all) -> (solutions, nodes): every solution, counted forward "
     "(ExactCover._count_all), placing only the pieces whose bits are set in pieces."},
    {"solutions", (PyCFunction)(void (*)(void))Problem_solutions, METH_FASTCALL,
     "solutions(pieces=all) -> iterator of each solution's placement masks, by piece number "
     "(ExactCover._search), placing only the pieces whose bits are set in pieces."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Problem_getset[] = {
    {"words", (getter)Problem_words, NULL, "64-bit words per mask (1, 2 or 4)", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject ProblemType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ubongo._exact.Problem",
    .tp_basicsize = sizeof(Problem),
    .tp_dealloc = (destructor)Problem_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Problem(area, anchors, hole_fillers, steps): an exact-cover problem on a grid "
              "(see ubongo/solver.py, ExactCover).",
    .tp_methods = Problem_methods,
    .tp_getset = Problem_getset,
    .tp_new = Problem_new,
};

static PyTypeObject SolutionsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ubongo._exact.Solutions",
    .tp_basicsize = sizeof(Solutions),
    .tp_dealloc = (destructor)Solutions_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The solutions of a Problem, one at a time.",
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)Solutions_next,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "ubongo._exact",
    .m_doc = "The solver's searches compiled (ubongo/solver.py is the reference).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__exact(void)
{
    if (PyType_Ready(&ProblemType) < 0 || PyType_Ready(&SolutionsType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    Py_INCREF(&ProblemType);
    if (PyModule_AddObject(m, "Problem", (PyObject *)&ProblemType) < 0 ||
        PyModule_AddIntConstant(m, "MAX_BITS", MAX_BITS) < 0 ||
        PyModule_AddIntConstant(m, "MAX_PIECES", MAX_PIECES) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
