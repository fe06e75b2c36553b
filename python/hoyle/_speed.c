/* _speed.c — the optional CPython extension (hoyle._speed) behind the
 * per-step Python paths: State.step, State.legal_actions and the
 * environments' observation + mask, one C-API call each instead of a cffi
 * call plus list building in Python.
 *
 * It does not link libhoyle: hoyle/_lib.py passes the addresses of the three
 * library functions it calls (bind()), taken from the library cffi has
 * loaded, so the extension and the library can never be two different
 * builds. Games, states and buffers arrive as addresses (ints) that
 * hoyle/game.py takes from its cffi objects; the module is private to the
 * package and trusts them. Without it (no Python headers at build time) the
 * package runs the same paths through cffi, slower. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdint.h>

typedef int (*step_fn)(const void *g, void *s, int action, int *legal, int known);
typedef int (*legal_fn)(const void *g, const void *s, int *out);
typedef int (*observe_mask_fn)(const void *g, const void *s, int player, float *obs, int8_t *mask,
                               int *legal, int known);

static step_fn api_step;
static legal_fn api_legal;
static observe_mask_fn api_observe_mask;

static PyObject *bind(PyObject *self, PyObject *args)
{
    (void)self;
    unsigned long long step, legal, observe_mask;
    if (!PyArg_ParseTuple(args, "KKK", &step, &legal, &observe_mask)) return NULL;
    api_step = (step_fn)(uintptr_t)step;
    api_legal = (legal_fn)(uintptr_t)legal;
    api_observe_mask = (observe_mask_fn)(uintptr_t)observe_mask;
    Py_RETURN_NONE;
}

/* PyLong_AsInt is public only from Python 3.13. */
static int as_int(PyObject *o)
{
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < INT_MIN || v > INT_MAX) {
        PyErr_SetString(PyExc_OverflowError, "hoyle._speed: an int argument out of range");
        return -1;
    }
    return (int)v;
}

static int bound(void)
{
    if (api_step && api_legal && api_observe_mask) return 1;
    PyErr_SetString(PyExc_RuntimeError, "hoyle._speed: bind() was not called");
    return 0;
}

static PyObject *int_list(const int *v, int n)
{
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLong(v[i]);
        if (!x) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, x);
    }
    return list;
}

/* step(game, state, action, legal_buf, known) -> the new legal list, or the
 * library's negative status as an int (the state unchanged). */
static PyObject *step(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 5 || !bound()) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "step: 5 arguments");
        return NULL;
    }
    void *g = PyLong_AsVoidPtr(args[0]), *s = PyLong_AsVoidPtr(args[1]);
    int *buf = PyLong_AsVoidPtr(args[3]);
    int action = as_int(args[2]), known = as_int(args[4]);
    if (PyErr_Occurred()) return NULL;
    int n = api_step(g, s, action, buf, known);
    return n < 0 ? PyLong_FromLong(n) : int_list(buf, n);
}

/* legal(game, state, legal_buf) -> the legal list. */
static PyObject *legal(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 3 || !bound()) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "legal: 3 arguments");
        return NULL;
    }
    void *g = PyLong_AsVoidPtr(args[0]), *s = PyLong_AsVoidPtr(args[1]);
    int *buf = PyLong_AsVoidPtr(args[2]);
    if (PyErr_Occurred()) return NULL;
    return int_list(buf, api_legal(g, s, buf));
}

/* observe_mask(game, state, player, obs, mask, legal_buf, known) -> the legal
 * count or a negative status; obs (float32) and mask (int8) are writable
 * contiguous buffers of the game's observation size and action count. */
static PyObject *observe_mask(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 7 || !bound()) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "observe_mask: 7 arguments");
        return NULL;
    }
    void *g = PyLong_AsVoidPtr(args[0]), *s = PyLong_AsVoidPtr(args[1]);
    int *buf = PyLong_AsVoidPtr(args[5]);
    int player = as_int(args[2]), known = as_int(args[6]);
    if (PyErr_Occurred()) return NULL;
    Py_buffer obs, mask;
    if (PyObject_GetBuffer(args[3], &obs, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return NULL;
    if (PyObject_GetBuffer(args[4], &mask, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&obs);
        return NULL;
    }
    int n = api_observe_mask(g, s, player, obs.buf, mask.buf, buf, known);
    PyBuffer_Release(&mask);
    PyBuffer_Release(&obs);
    return PyLong_FromLong(n);
}

static PyMethodDef methods[] = {
    {"bind", bind, METH_VARARGS, "bind(step, legal, observe_mask): the library's functions"},
    {"step", (PyCFunction)(void (*)(void))step, METH_FASTCALL, "State.step's call"},
    {"legal", (PyCFunction)(void (*)(void))legal, METH_FASTCALL, "State.legal_actions's call"},
    {"observe_mask", (PyCFunction)(void (*)(void))observe_mask, METH_FASTCALL,
     "State.observation_and_mask's call"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    "hoyle._speed",
    "hoyle's per-step fast paths (private)",
    -1,
    methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__speed(void);
PyMODINIT_FUNC PyInit__speed(void) { return PyModule_Create(&module); }
