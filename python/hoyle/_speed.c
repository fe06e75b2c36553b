/* _speed.c — the optional CPython extension (hoyle._speed) behind the
 * per-step Python paths: a Cursor per State (step, legal actions, an
 * environment's move with its dice, observation + mask), an AEC
 * environment's Observer and the masked pick, each one C-API call with no
 * Python frame (the State's Lock: _speed_lock.c; AECEnv's own methods:
 * _speed_aec.c). The cffi twin (hoyle/game.py, _CffiCursor) does the same
 * work for a Python method, a `with` block and a cffi call more.
 *
 * It does not link libhoyle: hoyle/game.py passes the addresses of the
 * library functions it calls (bind()), taken from the library cffi has
 * loaded, so the extension and the library can never be two different
 * builds. A Cursor gets its game and state as addresses from hoyle/game.py
 * with the cffi objects that own them (`keep`), which it holds so that the
 * state outlives every bound method handed out; the module is private to
 * the package and trusts the addresses.
 *
 * Invariant: legal[0..known) is the legal list of the state as it is now
 * (0: not known). The Cursor's own calls keep it; State's other changes
 * (apply, apply_move) set known = 0.
 *
 * Threads: State's cffi calls hold the state's lock while C works with the
 * GIL released. A Cursor call keeps the GIL from start to end, so it only
 * has to keep out of such a call: when the lock is free no other thread can
 * start one before this call returns (that needs the GIL), and the call
 * runs without taking it; when the lock is held, the call waits for it with
 * acquire() (which lets the GIL go) and releases it after. The lock is
 * hoyle._speed.Lock, whose state the Cursor reads as a field (any other
 * lock: a call to its locked()). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <structmember.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "_speed.h"

typedef int (*step_fn)(const void *g, void *s, int action, int *legal, int known);
typedef int (*legal_fn)(const void *g, const void *s, int *out);
typedef int (*observe_mask_fn)(const void *g, const void *s, int player, float *obs, int8_t *mask,
                               int *legal, int known);
typedef int (*advance_fn)(const void *g, void *s, int action, int *legal, int known, void *dice,
                          double *probs, int *player);
typedef int (*settle_fn)(const void *g, void *s, int *legal, void *dice, double *probs,
                         int *player);

static step_fn api_step;
static legal_fn api_legal;
static observe_mask_fn api_observe_mask;
static advance_fn api_advance;
static settle_fn api_settle;
static PyObject *check_fn; /* hoyle._lib.check: raises hoyle.Error for a status */
static PyObject *int_fn;   /* hoyle.game._int: an action as a C int, or hoyle.Error */

static PyObject *bind(PyObject *self, PyObject *args)
{
    (void)self;
    unsigned long long fn[5];
    PyObject *check, *to_int;
    if (!PyArg_ParseTuple(args, "KKKKKOO", &fn[0], &fn[1], &fn[2], &fn[3], &fn[4], &check, &to_int))
        return NULL;
    api_step = (step_fn)(uintptr_t)fn[0];
    api_legal = (legal_fn)(uintptr_t)fn[1];
    api_observe_mask = (observe_mask_fn)(uintptr_t)fn[2];
    api_advance = (advance_fn)(uintptr_t)fn[3];
    api_settle = (settle_fn)(uintptr_t)fn[4];
    Py_INCREF(check);
    Py_XSETREF(check_fn, check);
    Py_INCREF(to_int);
    Py_XSETREF(int_fn, to_int);
    Py_RETURN_NONE;
}

typedef struct {
    PyObject ob_base; /* PyObject_HEAD */
    const void *g;
    void *s;
    int *legal; /* the legal list (and chance outcomes): `scratch` ints */
    int known;
    PyObject *keep;                       /* the owners of g and s */
    PyObject *acquire, *release, *locked; /* the state's lock's methods */
    speed_lock_t *fast;                   /* the lock when it is a Lock (acquire holds it) */
    PyObject *lists[2];                   /* the last two legal lists step() handed out */
    int next_list;
    int held; /* this call acquired the lock */
} cursor_t;

static PyTypeObject cursor_type, observer_type;

static void cursor_dealloc(cursor_t *c)
{
    free(c->legal);
    Py_XDECREF(c->keep);
    Py_XDECREF(c->acquire);
    Py_XDECREF(c->release);
    Py_XDECREF(c->locked);
    Py_XDECREF(c->lists[0]);
    Py_XDECREF(c->lists[1]);
    Py_TYPE(c)->tp_free((PyObject *)c);
}

/* Cursor(game_addr, state_addr, scratch, lock, keep) */
static PyObject *cursor_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    (void)kw;
    unsigned long long g, s;
    int scratch;
    PyObject *lock, *keep;
    if (!PyArg_ParseTuple(args, "KKiOO", &g, &s, &scratch, &lock, &keep)) return NULL;
    if (!api_step) {
        PyErr_SetString(PyExc_RuntimeError, "hoyle._speed: bind() was not called");
        return NULL;
    }
    if (scratch < 1) {
        PyErr_SetString(PyExc_ValueError, "hoyle._speed: scratch < 1");
        return NULL;
    }
    cursor_t *c = (cursor_t *)type->tp_alloc(type, 0);
    if (!c) return NULL;
    c->g = (const void *)(uintptr_t)g;
    c->s = (void *)(uintptr_t)s;
    c->legal = malloc(sizeof *c->legal * (size_t)scratch);
    Py_INCREF(keep);
    c->keep = keep;
    c->acquire = PyObject_GetAttrString(lock, "acquire");
    c->release = c->acquire ? PyObject_GetAttrString(lock, "release") : NULL;
    c->locked = c->release ? PyObject_GetAttrString(lock, "locked") : NULL;
    c->fast = speed_is_lock(lock) ? (speed_lock_t *)lock : NULL;
    if (!c->legal || !c->locked) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        Py_DECREF(c);
        return NULL;
    }
    return (PyObject *)c;
}

/* Keep out of a cffi call on the state (see Threads above). */
static int speed_lock(cursor_t *c)
{
    if (c->fast && !c->fast->locked) { /* a Lock that is free: no call at all */
        c->held = 0;
        return 0;
    }
    PyObject *r = PyObject_CallNoArgs(c->locked);
    if (!r) return -1;
    int busy = PyObject_IsTrue(r);
    Py_DECREF(r);
    c->held = 0;
    if (busy <= 0) return busy;
    r = PyObject_CallNoArgs(c->acquire);
    Py_XDECREF(r);
    c->held = r != NULL;
    return r ? 0 : -1;
}

static int speed_unlock(cursor_t *c)
{
    if (!c->held) return 0;
    c->held = 0;
    PyObject *r = PyObject_CallNoArgs(c->release);
    Py_XDECREF(r);
    return r ? 0 : -1;
}

/* o as a C int; other types and ranges go through hoyle's own converter,
 * which raises the package's errors (WrongType, Error). */
static int speed_as_int(PyObject *o, int *out)
{
    if (PyLong_CheckExact(o)) {
        int overflow;
        long v = PyLong_AsLongAndOverflow(o, &overflow);
        if (!overflow && v >= INT_MIN && v <= INT_MAX) {
            *out = (int)v;
            return 0;
        }
    }
    PyObject *r = PyObject_CallOneArg(int_fn, o);
    if (!r) return -1;
    long v = PyLong_AsLong(r);
    Py_DECREF(r);
    if (v == -1 && PyErr_Occurred()) return -1;
    *out = (int)v;
    return 0;
}

/* NULL with hoyle.Error for a negative status (the library's message). */
PyObject *speed_fail(int rc)
{
    PyObject *code = PyLong_FromLong(rc);
    if (!code) return NULL;
    PyObject *r = PyObject_CallOneArg(check_fn, code);
    Py_DECREF(code);
    Py_XDECREF(r);
    if (!PyErr_Occurred()) PyErr_Format(PyExc_RuntimeError, "hoyle._speed: status %d", rc);
    return NULL;
}

/* The ints 0..num_ints-1, made once: a legal list is then references to
 * them, not an allocation per action (CPython caches only up to 256). */
#define INT_CACHE_MAX 65536
static PyObject **ints;
static int num_ints;

static PyObject *action_int(int v)
{
    if (v >= 0 && v < num_ints) {
        Py_INCREF(ints[v]);
        return ints[v];
    }
    if (v < 0 || v >= INT_CACHE_MAX) return PyLong_FromLong(v);
    int n = num_ints;
    while (n <= v) n = n ? 2 * n : 1024;
    if (n > INT_CACHE_MAX) n = INT_CACHE_MAX;
    PyObject **grown = PyMem_Realloc(ints, sizeof *grown * (size_t)n);
    if (!grown) return PyErr_NoMemory();
    ints = grown;
    for (; num_ints < n; num_ints++)
        if (!(ints[num_ints] = PyLong_FromLong(num_ints))) return NULL;
    Py_INCREF(ints[v]);
    return ints[v];
}

static PyObject *int_list(const int *v, int n)
{
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = action_int(v[i]);
        if (!x) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, x);
    }
    return list;
}

/* Whether `list` can be filled again: nobody else holds it (reference
 * count 1: the cursor's), it has room for n, and it holds only ints (whose
 * release runs no Python code). */
static int reusable(PyListObject *l, int n)
{
    if (!l || Py_REFCNT(l) != 1 || l->allocated < n) return 0;
    for (Py_ssize_t i = 0; i < Py_SIZE(l); i++)
        if (!PyLong_CheckExact(l->ob_item[i])) return 0;
    return 1;
}

/* The list of v[0..n) for step(): one of the last two it handed out when
 * reusable(), filled again in place (so a loop that drops each list
 * allocates none), else a new one kept in place of the older. */
static PyObject *step_list(cursor_t *c, const int *v, int n)
{
    for (int k = 0; k < 2; k++) {
        PyListObject *l = (PyListObject *)c->lists[k];
        if (!reusable(l, n)) continue;
        for (Py_ssize_t i = 0; i < Py_SIZE(l); i++) Py_DECREF(l->ob_item[i]); /* ints */
        Py_SET_SIZE(l, 0);
        for (int i = 0; i < n; i++) {
            PyObject *x = action_int(v[i]);
            if (!x) return NULL;
            l->ob_item[i] = x;
            Py_SET_SIZE(l, i + 1);
        }
        Py_INCREF(l);
        return (PyObject *)l;
    }
    PyObject *list = int_list(v, n);
    if (!list) return NULL;
    Py_INCREF(list);
    Py_XSETREF(c->lists[c->next_list], list);
    c->next_list ^= 1;
    return list;
}

/* step(action) -> the new legal list (State.step). */
static PyObject *cursor_step(cursor_t *c, PyObject *arg)
{
    int action;
    if (speed_as_int(arg, &action) || speed_lock(c)) return NULL;
    int n = api_step(c->g, c->s, action, c->legal, c->known);
    c->known = n > 0 ? n : 0;
    if (speed_unlock(c)) return NULL;
    return n < 0 ? speed_fail(n) : step_list(c, c->legal, n);
}

/* legal() -> the legal list (State.legal_actions). */
static PyObject *cursor_legal(cursor_t *c, PyObject *unused)
{
    (void)unused;
    if (speed_lock(c)) return NULL;
    int n = c->known = api_legal(c->g, c->s, c->legal);
    if (speed_unlock(c)) return NULL;
    return int_list(c->legal, n);
}

static int addr(PyObject *o, void **out)
{
    *out = PyLong_AsVoidPtr(o);
    return *out == NULL && PyErr_Occurred() ? -1 : 0;
}

/* Every fast call's argument check: 0 when `bad` is false; else -1 with a
 * TypeError that shows the call ("settle(dice, probs)"). */
static int bad_args(int bad, const char *usage)
{
    if (!bad) return 0;
    PyErr_SetString(PyExc_TypeError, usage);
    return -1;
}

/* The head of numpy's PyArrayObject_fields (numpy/ndarraytypes.h): what
 * PyArray_DATA, PyArray_NDIM, PyArray_DIMS, PyArray_DESCR and
 * PyArray_FLAGS read, the same from numpy 1.7 to 2.x. Asking an array for
 * its buffer costs more than the rest of a step (numpy builds its buffer
 * info on every request), so speed_view reads this head instead for the
 * arrays it has learned to trust: of numpy's own type, with a dtype whose
 * item it saw through the buffer protocol (float32 "f", int8 "b"). */
typedef struct {
    PyObject ob_base; /* PyObject_HEAD */
    char *data;
    int nd;
    Py_ssize_t *dimensions, *strides;
    PyObject *base, *descr;
    int flags;
} np_head_t;

#define NP_C_CONTIGUOUS 0x0001 /* NPY_ARRAY_C_CONTIGUOUS */
#define NP_WRITEABLE    0x0400 /* NPY_ARRAY_WRITEABLE */

static PyTypeObject *np_type; /* numpy.ndarray, once seen */
static PyObject *np_descr[2]; /* the float32 and int8 dtypes, once seen */
static const char np_format[2] = {'f', 'b'};
static const Py_ssize_t np_itemsize[2] = {4, 1};

/* Learn o's type and dtype from its buffer b when o is a numpy array of
 * the kind's item. */
static void learn(PyObject *o, int kind, const Py_buffer *b)
{
    const char *f = b->format ? b->format : "B";
    if (*f == '<' || *f == '=' || *f == '@') f++;
    if (np_descr[kind] || b->itemsize != np_itemsize[kind] || f[0] != np_format[kind] || f[1])
        return;
    if (strcmp(Py_TYPE(o)->tp_name, "numpy.ndarray") != 0) return;
    if (np_type && np_type != Py_TYPE(o)) return;
    np_type = Py_TYPE(o);
    Py_INCREF(np_type); /* kept for the module's life, as the dtype */
    np_descr[kind] = ((np_head_t *)o)->descr;
    Py_INCREF(np_descr[kind]);
}

int speed_view(PyObject *o, int kind, int writable, Py_buffer *b)
{
    if (np_type && Py_TYPE(o) == np_type) {
        np_head_t *a = (np_head_t *)o;
        int need = NP_C_CONTIGUOUS | (writable ? NP_WRITEABLE : 0);
        if (a->descr == np_descr[kind] && (a->flags & need) == need) {
            Py_ssize_t n = np_itemsize[kind];
            for (int i = 0; i < a->nd; i++) n *= a->dimensions[i];
            b->obj = NULL;
            b->buf = a->data;
            b->len = n;
            b->itemsize = np_itemsize[kind];
            return 0;
        }
    }
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(o, b, flags) < 0) return -1;
    learn(o, kind, b);
    return 0;
}

void speed_release(Py_buffer *b)
{
    if (b->obj) PyBuffer_Release(b);
}

/* The writable C-contiguous buffers of obs_o and mask_o (the caller
 * releases both with speed_release), or -1 with neither held. */
static int get_obs_mask(PyObject *obs_o, PyObject *mask_o, Py_buffer *obs, Py_buffer *mask)
{
    if (speed_view(obs_o, SPEED_F32, 1, obs) < 0) return -1;
    if (speed_view(mask_o, SPEED_BYTE, 1, mask) < 0) {
        speed_release(obs);
        return -1;
    }
    return 0;
}

/* advance(action, dice_addr, probs_addr) -> the player to move after the
 * action and the dice that follow it (api_state_advance), or TERMINAL. */
static PyObject *cursor_advance(cursor_t *c, PyObject *const *args, Py_ssize_t nargs)
{
    int action, player = 0;
    void *dice, *probs;
    if (bad_args(nargs != 3, "advance(action, dice, probs)")) return NULL;
    if (speed_as_int(args[0], &action) || addr(args[1], &dice) || addr(args[2], &probs) ||
        speed_lock(c))
        return NULL;
    int n = api_advance(c->g, c->s, action, c->legal, c->known, dice, probs, &player);
    c->known = n > 0 ? n : 0;
    if (speed_unlock(c)) return NULL;
    return n < 0 ? speed_fail(n) : PyLong_FromLong(player);
}

int speed_is_cursor(PyObject *o) { return Py_TYPE(o) == &cursor_type; }

int speed_advance(PyObject *cursor, int action, void *dice, void *probs, int *player)
{
    cursor_t *c = (cursor_t *)cursor;
    if (speed_lock(c)) return SPEED_PYERR;
    int n = api_advance(c->g, c->s, action, c->legal, c->known, dice, probs, player);
    c->known = n > 0 ? n : 0;
    return speed_unlock(c) ? SPEED_PYERR : n;
}

/* settle(dice_addr, probs_addr) -> the player to move once the dice are
 * played (api_state_settle), or TERMINAL. */
static PyObject *cursor_settle(cursor_t *c, PyObject *const *args, Py_ssize_t nargs)
{
    int player = 0;
    void *dice, *probs;
    if (bad_args(nargs != 2, "settle(dice, probs)")) return NULL;
    if (addr(args[0], &dice) || addr(args[1], &probs) || speed_lock(c)) return NULL;
    int n = api_settle(c->g, c->s, c->legal, dice, probs, &player);
    c->known = n > 0 ? n : 0;
    if (speed_unlock(c)) return NULL;
    return n < 0 ? speed_fail(n) : PyLong_FromLong(player);
}

/* observe_mask(player, obs, mask) -> the legal count; obs (float32) and
 * mask (int8) are writable contiguous buffers of the game's observation
 * size and action count. */
static PyObject *cursor_observe_mask(cursor_t *c, PyObject *const *args, Py_ssize_t nargs)
{
    int player;
    if (bad_args(nargs != 3, "observe_mask(player, obs, mask)")) return NULL;
    if (speed_as_int(args[0], &player)) return NULL;
    Py_buffer obs, mask;
    if (get_obs_mask(args[1], args[2], &obs, &mask)) return NULL;
    int n = -1, locked = speed_lock(c) == 0;
    if (locked) {
        n = api_observe_mask(c->g, c->s, player, obs.buf, mask.buf, c->legal, c->known);
        if (n >= 0) c->known = n;
        locked = speed_unlock(c) == 0;
    }
    speed_release(&mask);
    speed_release(&obs);
    if (!locked) return NULL;
    return n < 0 ? speed_fail(n) : PyLong_FromLong(n);
}

static PyMethodDef cursor_methods[] = {
    {"step", (PyCFunction)cursor_step, METH_O, "State.step: apply, then the new legal list"},
    {"legal", (PyCFunction)cursor_legal, METH_NOARGS, "State.legal_actions"},
    {"advance", (PyCFunction)(void (*)(void))cursor_advance, METH_FASTCALL,
     "an environment's move: the action, then the dice; the player to move"},
    {"settle", (PyCFunction)(void (*)(void))cursor_settle, METH_FASTCALL,
     "the dice from here; the player to move"},
    {"observe_mask", (PyCFunction)(void (*)(void))cursor_observe_mask, METH_FASTCALL,
     "the observation and legal mask into two buffers; the legal count"},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef cursor_members[] = {
    {"known", T_INT, offsetof(cursor_t, known), 0, "legal[0..known) is the current list"},
    {NULL, 0, 0, 0, NULL},
};

static PyTypeObject cursor_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "hoyle._speed.Cursor",
    .tp_basicsize = sizeof(cursor_t),
    .tp_dealloc = (destructor)cursor_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Cursor(game_addr, state_addr, scratch, lock, keep): a State's fast calls",
    .tp_methods = cursor_methods,
    .tp_members = cursor_members,
    .tp_new = cursor_new,
};

/* An AEC environment's observations, {"observation": obs, "action_mask":
 * mask}, with the arrays' memory used again: of the last two dicts handed
 * out, one the caller no longer holds (nothing refers to it or its arrays
 * but this object: reference counts 1, 2 and 2, the dict as it was made) is
 * filled in place and handed out again; otherwise make() (Python) makes a
 * new one. So a dict or array anyone still holds, a view of it included,
 * never changes, and a loop that drops each observation allocates none. */
typedef struct {
    PyObject ob_base; /* PyObject_HEAD */
    PyObject *make;   /* () -> (dict, obs, mask), new numpy arrays */
    PyObject *slot[2][3];
    Py_ssize_t obs_bytes, mask_bytes;
    int next;
} observer_t;

static PyObject *key_obs, *key_mask; /* "observation", "action_mask" */

static void observer_dealloc(observer_t *o)
{
    Py_XDECREF(o->make);
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < 3; j++) Py_XDECREF(o->slot[k][j]);
    Py_TYPE(o)->tp_free((PyObject *)o);
}

/* Observer(make, obs_bytes, mask_bytes) */
static PyObject *observer_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    (void)kw;
    PyObject *make;
    Py_ssize_t obs_bytes, mask_bytes;
    if (!PyArg_ParseTuple(args, "Onn", &make, &obs_bytes, &mask_bytes)) return NULL;
    observer_t *o = (observer_t *)type->tp_alloc(type, 0);
    if (!o) return NULL;
    Py_INCREF(make);
    o->make = make;
    o->obs_bytes = obs_bytes;
    o->mask_bytes = mask_bytes;
    return (PyObject *)o;
}

static int unshared(PyObject *const *s)
{
    return s[0] && Py_REFCNT(s[0]) == 1 && Py_REFCNT(s[1]) == 2 && Py_REFCNT(s[2]) == 2 &&
           PyDict_GET_SIZE(s[0]) == 2 && PyDict_GetItem(s[0], key_obs) == s[1] &&
           PyDict_GetItem(s[0], key_mask) == s[2];
}

/* The slot to hand out next: an unshared one, else a new one in its place. */
int speed_is_observer(PyObject *o) { return Py_TYPE(o) == &observer_type; }

static PyObject *const *observer_slot(observer_t *o)
{
    int k = o->next;
    o->next ^= 1;
    if (unshared(o->slot[k])) return o->slot[k];
    if (unshared(o->slot[k ^ 1])) return o->slot[k ^ 1];
    PyObject *made = PyObject_CallNoArgs(o->make);
    if (!made) return NULL;
    if (!PyTuple_Check(made) || PyTuple_GET_SIZE(made) != 3) {
        Py_DECREF(made);
        PyErr_SetString(PyExc_TypeError, "Observer: make() must return (dict, obs, mask)");
        return NULL;
    }
    for (int j = 0; j < 3; j++) {
        Py_INCREF(PyTuple_GET_ITEM(made, j));
        Py_XSETREF(o->slot[k][j], PyTuple_GET_ITEM(made, j));
    }
    Py_DECREF(made);
    return o->slot[k];
}

/* The observation dict of `player` in the state behind `cursor`, its mask
 * marking the legal actions (a new reference), or NULL with an error. */
PyObject *speed_observe(PyObject *observer, PyObject *cursor, int player)
{
    observer_t *o = (observer_t *)observer;
    cursor_t *c = (cursor_t *)cursor;
    PyObject *const *s = observer_slot(o);
    if (!s) return NULL;
    Py_buffer obs, mask;
    if (get_obs_mask(s[1], s[2], &obs, &mask)) return NULL;
    int n = -1, ok = obs.len == o->obs_bytes && mask.len == o->mask_bytes;
    if (!ok)
        PyErr_SetString(PyExc_ValueError, "Observer: make() made arrays of the wrong size");
    else if ((ok = speed_lock(c) == 0)) {
        n = api_observe_mask(c->g, c->s, player, obs.buf, mask.buf, c->legal, c->known);
        if (n >= 0) c->known = n;
        ok = speed_unlock(c) == 0;
    }
    speed_release(&mask);
    speed_release(&obs);
    if (!ok) return NULL;
    if (n < 0) return speed_fail(n);
    Py_INCREF(s[0]);
    return s[0];
}

/* observe(cursor, player) -> the observation dict of `player` (the state
 * behind `cursor`), its mask marking the legal actions. */
static PyObject *observer_observe(observer_t *o, PyObject *const *args, Py_ssize_t nargs)
{
    int player;
    if (bad_args(nargs != 2 || Py_TYPE(args[0]) != &cursor_type, "observe(cursor, player)"))
        return NULL;
    if (speed_as_int(args[1], &player)) return NULL;
    return speed_observe((PyObject *)o, args[0], player);
}

static PyMethodDef observer_methods[] = {
    {"observe", (PyCFunction)(void (*)(void))observer_observe, METH_FASTCALL,
     "observe(cursor, player): the observation dict, its arrays' memory used again"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject observer_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "hoyle._speed.Observer",
    .tp_basicsize = sizeof(observer_t),
    .tp_dealloc = (destructor)observer_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Observer(make, obs_bytes, mask_bytes): an AEC environment's observations",
    .tp_methods = observer_methods,
    .tp_new = observer_new,
};

#if defined(__SSE2__)
/* The index of the k-th nonzero byte of m[0..n) (-1: none), or with k < 0
 * their count: sixteen bytes a compare, the set ones a bit mask, counted
 * only where one is set (masks are mostly zeros). */
static Py_ssize_t nth_set(const unsigned char *m, Py_ssize_t n, Py_ssize_t k)
{
    Py_ssize_t count = 0, i = 0;
    const __m128i zero = _mm_setzero_si128();
    for (; i + 16 <= n; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(m + i));
        unsigned set = ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, zero)) & 0xffffu;
        if (!set) continue;
        int c = __builtin_popcount(set);
        if (k >= 0 && k < count + c) { /* the k-th is here: drop the lower set bits */
            for (Py_ssize_t j = k - count; j > 0; j--) set &= set - 1;
            return i + __builtin_ctz(set);
        }
        count += c;
    }
    for (; i < n; i++)
        if (m[i] != 0 && count++ == k) return i;
    return k < 0 ? count : -1;
}
#else
/* Byte j of the result is 1 if byte j of w is nonzero, else 0 (no carry
 * crosses a byte: (b & 0x7f) + 0x7f <= 0xfe). */
static uint64_t nonzero_bytes(uint64_t w)
{
    const uint64_t low7 = 0x7f7f7f7f7f7f7f7full;
    return ((((w & low7) + low7) | w) & ~low7) >> 7;
}

/* The index of the k-th nonzero byte of m[0..n) (-1: none), or with k < 0
 * their count: eight bytes at a time, counted without a branch per byte. */
static Py_ssize_t nth_set(const unsigned char *m, Py_ssize_t n, Py_ssize_t k)
{
    Py_ssize_t count = 0, i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, m + i, 8);
        int c = (int)((nonzero_bytes(w) * 0x0101010101010101ull) >> 56);
        if (k >= 0 && k < count + c) break; /* the k-th is in this word */
        count += c;
    }
    for (; i < n; i++)
        if (m[i] != 0 && count++ == k) return i;
    return k < 0 ? count : -1;
}
#endif

Py_ssize_t speed_pick(const void *mask, Py_ssize_t n, double u)
{
    Py_ssize_t count = nth_set(mask, n, -1);
    if (count == 0) return -1;
    Py_ssize_t k = (Py_ssize_t)(u * (double)count);
    return nth_set(mask, n, k < 0 ? 0 : k < count ? k : count - 1);
}

/* pick(mask, u) -> the index of the k-th nonzero entry of `mask`, k =
 * floor(u * count) (Discrete.sample with a mask); -1 when none is set, -2
 * when `mask` is not a contiguous buffer of one-byte items (the caller
 * then does it in numpy). */
static PyObject *pick(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (bad_args(nargs != 2, "pick(mask, u)")) return NULL;
    double u = PyFloat_AsDouble(args[1]);
    if (u == -1.0 && PyErr_Occurred()) return NULL;
    Py_buffer b;
    if (speed_view(args[0], SPEED_BYTE, 0, &b) < 0) {
        PyErr_Clear();
        return PyLong_FromLong(-2);
    }
    if (b.itemsize != 1) {
        speed_release(&b);
        return PyLong_FromLong(-2);
    }
    Py_ssize_t at = speed_pick(b.buf, b.len, u);
    speed_release(&b);
    return PyLong_FromSsize_t(at);
}

static PyMethodDef methods[] = {
    {"bind", bind, METH_VARARGS,
     "bind(step, legal, observe_mask, advance, settle, check, to_int): the library's functions"},
    {"pick", (PyCFunction)(void (*)(void))pick, METH_FASTCALL, "a masked uniform choice"},
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
PyMODINIT_FUNC PyInit__speed(void)
{
    if (PyType_Ready(&cursor_type) < 0 || PyType_Ready(&observer_type) < 0) return NULL;
    key_obs = PyUnicode_InternFromString("observation");
    key_mask = PyUnicode_InternFromString("action_mask");
    if (!key_obs || !key_mask) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (PyModule_AddType(m, &cursor_type) < 0 || PyModule_AddType(m, &observer_type) < 0 ||
        speed_lock_add(m) < 0 || speed_aec_add(m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
