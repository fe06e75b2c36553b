/* _speed_lock.c — hoyle._speed.Lock: a State's lock (threading.Lock's
 * acquire, release, locked and `with`) whose state a Cursor reads as a
 * field (speed_lock_t.locked), where a threading.Lock costs it a call to
 * locked() on every step.
 *
 * Invariant: `locked` is 1 exactly while the underlying lock is held
 * through this object; it changes only with the GIL held. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_speed.h"

static void lock_dealloc(speed_lock_t *l)
{
    if (l->lock) {
        if (l->locked) PyThread_release_lock(l->lock);
        PyThread_free_lock(l->lock);
    }
    Py_TYPE(l)->tp_free((PyObject *)l);
}

static PyObject *lock_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    if (!PyArg_ParseTuple(args, ":Lock") || (kw && PyDict_GET_SIZE(kw))) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "Lock() takes no arguments");
        return NULL;
    }
    speed_lock_t *l = (speed_lock_t *)type->tp_alloc(type, 0);
    if (l && !(l->lock = PyThread_allocate_lock())) {
        Py_DECREF(l);
        return PyErr_NoMemory();
    }
    return (PyObject *)l;
}

/* Take the lock, waiting up to timeout_us (-1: for ever) with the GIL
 * released: 1 taken, 0 not, -1 with an error (a signal handler's). */
static int lock_take(speed_lock_t *l, PY_TIMEOUT_T timeout_us)
{
    PyLockStatus r = PyThread_acquire_lock_timed(l->lock, 0, 0);
    while (r == PY_LOCK_FAILURE && timeout_us != 0) {
        Py_BEGIN_ALLOW_THREADS r = PyThread_acquire_lock_timed(l->lock, timeout_us, 1);
        Py_END_ALLOW_THREADS if (r != PY_LOCK_INTR) break;
        if (Py_MakePendingCalls() < 0) return -1; /* a KeyboardInterrupt, say */
        r = PY_LOCK_FAILURE;
    }
    if (r != PY_LOCK_ACQUIRED) return 0;
    l->locked = 1;
    return 1;
}

/* acquire(blocking=True, timeout=-1) -> bool */
static PyObject *lock_acquire(speed_lock_t *l, PyObject *args, PyObject *kw)
{
    static char *names[] = {"blocking", "timeout", NULL};
    int blocking = 1;
    double timeout = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|pd:acquire", names, &blocking, &timeout))
        return NULL;
    if (!blocking && timeout != -1) {
        PyErr_SetString(PyExc_ValueError, "can't specify a timeout for a non-blocking call");
        return NULL;
    }
    if (timeout < 0 && timeout != -1) {
        PyErr_SetString(PyExc_ValueError, "timeout value must be a non-negative number");
        return NULL;
    }
    PY_TIMEOUT_T us = !blocking ? 0 : timeout < 0 ? -1 : (PY_TIMEOUT_T)(timeout * 1e6);
    int r = lock_take(l, us);
    return r < 0 ? NULL : PyBool_FromLong(r);
}

static PyObject *lock_release(speed_lock_t *l, PyObject *unused)
{
    (void)unused;
    if (!l->locked) {
        PyErr_SetString(PyExc_RuntimeError, "release unlocked lock");
        return NULL;
    }
    l->locked = 0;
    PyThread_release_lock(l->lock);
    Py_RETURN_NONE;
}

static PyObject *lock_locked(speed_lock_t *l, PyObject *unused)
{
    (void)unused;
    return PyBool_FromLong(l->locked);
}

static PyObject *lock_enter(speed_lock_t *l, PyObject *unused)
{
    (void)unused;
    int r = lock_take(l, -1);
    return r < 0 ? NULL : PyBool_FromLong(r);
}

static PyObject *lock_exit(speed_lock_t *l, PyObject *args)
{
    (void)args;
    return lock_release(l, NULL);
}

static PyMethodDef lock_methods[] = {
    {"acquire", (PyCFunction)(void (*)(void))lock_acquire, METH_VARARGS | METH_KEYWORDS,
     "acquire(blocking=True, timeout=-1): as threading.Lock's"},
    {"release", (PyCFunction)lock_release, METH_NOARGS, "release()"},
    {"locked", (PyCFunction)lock_locked, METH_NOARGS, "locked()"},
    {"__enter__", (PyCFunction)lock_enter, METH_NOARGS, NULL},
    {"__exit__", (PyCFunction)lock_exit, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject lock_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "hoyle._speed.Lock",
    .tp_basicsize = sizeof(speed_lock_t),
    .tp_dealloc = (destructor)lock_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Lock(): a State's lock, threading.Lock's methods, its state readable from C",
    .tp_methods = lock_methods,
    .tp_new = lock_new,
};

int speed_is_lock(PyObject *o) { return Py_TYPE(o) == &lock_type; }

int speed_lock_add(PyObject *module)
{
    if (PyType_Ready(&lock_type) < 0) return -1;
    return PyModule_AddType(module, &lock_type);
}
