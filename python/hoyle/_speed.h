/* _speed.h — what the files of hoyle._speed (the private CPython extension
 * behind hoyle's per-step paths) share: _speed.c (the State's Cursor, the
 * Observer, the masked pick), _speed_lock.c (the State's Lock) and
 * _speed_aec.c (AECEnv's step, last, action_space, agent_iter;
 * Discrete.sample). Include after <Python.h>. */
#ifndef HOYLE_SPEED_H
#define HOYLE_SPEED_H

#include <limits.h>

/* hoyle._speed.Lock (_speed_lock.c): `locked` is 1 while it is held. */
typedef struct {
    PyObject ob_base; /* PyObject_HEAD */
    PyThread_type_lock lock;
    char locked;
} speed_lock_t;

/* Whether o is a hoyle._speed.Lock. */
int speed_is_lock(PyObject *o);

/* hoyle._speed.Lock added to the module: 0, or -1 with an error. */
int speed_lock_add(PyObject *module);

/* speed_advance's status when a Python error is set (the state's lock). */
#define SPEED_PYERR INT_MIN

/* Whether o is a hoyle._speed.Cursor / Observer. */
int speed_is_cursor(PyObject *o);
int speed_is_observer(PyObject *o);

/* api_state_advance on the state behind `cursor` (a Cursor), keeping its
 * legal list: the legal count (>= 0; *player the player to move, or
 * TERMINAL), a negative library status with no Python error set (nothing
 * changed), or SPEED_PYERR with one. */
int speed_advance(PyObject *cursor, int action, void *dice, void *probs, int *player);

/* Observer.observe: the observation dict of `player` in the state behind
 * `cursor` (a new reference), or NULL with an error. */
PyObject *speed_observe(PyObject *observer, PyObject *cursor, int player);

/* The index of the k-th nonzero byte of mask[0..n), k = floor(u * count),
 * u in [0, 1) (Discrete.sample with a mask); -1 when none is set. */
Py_ssize_t speed_pick(const void *mask, Py_ssize_t n, double u);

/* speed_view's kinds of array: float32 items, one-byte items. */
#define SPEED_F32  0
#define SPEED_BYTE 1

/* o's memory as C-contiguous bytes (writable if asked) in b: buf, len and
 * itemsize set; read from the array itself for a numpy array of the kind's
 * dtype (no buffer request), else through the buffer protocol (b->obj
 * set). 0, or -1 with an error. Release with speed_release. */
int speed_view(PyObject *o, int kind, int writable, Py_buffer *b);
void speed_release(Py_buffer *b);

/* NULL with hoyle.Error for a negative library status. */
PyObject *speed_fail(int rc);

/* hoyle._speed.Aec (_speed_aec.c) added to the module: 0, or -1 with an error. */
int speed_aec_add(PyObject *module);

#endif
