/* _speed_aec.c — the AEC loop's calls in C: hoyle._speed.Aec, AECEnv's
 * step(), last(), action_space() and agent_iter() (hoyle/env.py installs
 * them on the environment at reset()), the per-agent bookkeeping
 * PettingZoo's API keeps (rewards, _cumulative_rewards, terminations,
 * truncations, infos, steps, moves) updated in place, one call per step;
 * and hoyle._speed.Sampler, Discrete.sample(mask) (hoyle/spaces.py).
 *
 * Invariant: the environment's attributes stay the one truth. Every call
 * reads them from the environment's __dict__ (nothing is cached here but
 * the state it was made for, whose identity each call checks), so Python
 * code that sets them (reset, _end, _lose_illegal, _remove, a user) is
 * seen at once. Only the hot case is done here: an agent to move, not
 * terminated or truncated, an int action in the space that the rules
 * accept, no arguments beyond it. Every other case (an agent stepped out
 * with None, an illegal action, last(observe=False), a replaced
 * game_state, ...) calls the Python method itself (AECEnv.step or .last),
 * so its behaviour is the Python one by construction. A refused action
 * changes nothing here before the Python method runs again and decides. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_speed.h"

typedef struct {
    PyObject ob_base;            /* PyObject_HEAD */
    PyObject *env, *dict;        /* the environment and its __dict__ */
    PyObject *step_py, *last_py; /* AECEnv.step, AECEnv.last: every other case */
    PyObject *action_space_py;   /* AECEnv.action_space */
    PyObject *agent_iter_py;     /* AECEnv.agent_iter */
    PyObject *state, *cursor;    /* the game_state this core is for, its Cursor */
    PyObject *observer;          /* the environment's Observer */
    void *dice, *probs;          /* its rng_t and chance scratch */
    long num_actions;
} aec_t;

/* The attribute names, interned; zero and one as Python objects. */
static PyObject *k_game_state, *k_agents, *k_agent_selection, *k_terminations, *k_truncations,
    *k_cumulative, *k_steps, *k_rewards, *k_zero_rewards, *k_moves, *k_last_player, *k_max_moves,
    *k_max_cycles, *k_possible, *k_seat, *k_infos, *k_end, *k_limits, *k_action_spaces, *zero_float,
    *one;

static int aec_traverse(aec_t *a, visitproc visit, void *arg)
{
    Py_VISIT(a->env);
    Py_VISIT(a->dict);
    Py_VISIT(a->step_py);
    Py_VISIT(a->last_py);
    Py_VISIT(a->action_space_py);
    Py_VISIT(a->agent_iter_py);
    Py_VISIT(a->state);
    Py_VISIT(a->cursor);
    Py_VISIT(a->observer);
    return 0;
}

static int aec_clear(aec_t *a)
{
    Py_CLEAR(a->env);
    Py_CLEAR(a->dict);
    Py_CLEAR(a->step_py);
    Py_CLEAR(a->last_py);
    Py_CLEAR(a->action_space_py);
    Py_CLEAR(a->agent_iter_py);
    Py_CLEAR(a->state);
    Py_CLEAR(a->cursor);
    Py_CLEAR(a->observer);
    return 0;
}

static void aec_dealloc(aec_t *a)
{
    PyObject_GC_UnTrack(a);
    aec_clear(a);
    Py_TYPE(a)->tp_free((PyObject *)a);
}

/* Aec(env, (step_py, last_py, action_space_py, agent_iter_py), observer,
 * dice_addr, probs_addr, num_actions): env.game_state's Cursor is the one
 * it steps. */
static PyObject *aec_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    (void)kw;
    PyObject *env, *step_py, *last_py, *action_space_py, *agent_iter_py, *observer, *dice, *probs;
    long num_actions;
    if (!PyArg_ParseTuple(args, "O(OOOO)OOOl", &env, &step_py, &last_py, &action_space_py,
                          &agent_iter_py, &observer, &dice, &probs, &num_actions))
        return NULL;
    PyObject *dict = PyObject_GenericGetDict(env, NULL);
    if (!dict) return NULL;
    PyObject *state = PyDict_GetItemWithError(dict, k_game_state);
    PyObject *cursor = state ? PyObject_GetAttrString(state, "_c") : NULL;
    if (!cursor || !speed_is_cursor(cursor) || !speed_is_observer(observer)) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError,
                            "Aec: needs env.game_state with a Cursor and an Observer");
        Py_XDECREF(cursor);
        Py_DECREF(dict);
        return NULL;
    }
    aec_t *a = (aec_t *)type->tp_alloc(type, 0);
    if (!a) {
        Py_DECREF(cursor);
        Py_DECREF(dict);
        return NULL;
    }
    a->dict = dict;
    a->cursor = cursor;
    Py_INCREF(env);
    a->env = env;
    Py_INCREF(state);
    a->state = state;
    Py_INCREF(step_py);
    a->step_py = step_py;
    Py_INCREF(last_py);
    a->last_py = last_py;
    Py_INCREF(action_space_py);
    a->action_space_py = action_space_py;
    Py_INCREF(agent_iter_py);
    a->agent_iter_py = agent_iter_py;
    Py_INCREF(observer);
    a->observer = observer;
    a->dice = PyLong_AsVoidPtr(dice);
    a->probs = a->dice || !PyErr_Occurred() ? PyLong_AsVoidPtr(probs) : NULL;
    a->num_actions = num_actions;
    if (PyErr_Occurred()) {
        Py_DECREF(a);
        return NULL;
    }
    return (PyObject *)a;
}

/* fn(self, *args, **kwnames): the Python method for every case but the hot one. */
static PyObject *delegate(PyObject *self, PyObject *fn, PyObject *const *args, Py_ssize_t nargs,
                          PyObject *kwnames)
{
    Py_ssize_t total = nargs + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0);
    PyObject *small[8], **all = total < 8 ? small : PyMem_Malloc(sizeof *all * (size_t)(total + 1));
    if (!all) return PyErr_NoMemory();
    all[0] = self;
    for (Py_ssize_t i = 0; i < total; i++) all[i + 1] = args[i];
    PyObject *r = PyObject_Vectorcall(fn, all, (size_t)nargs + 1, kwnames);
    if (all != small) PyMem_Free(all);
    return r;
}

/* d[key], borrowed; NULL when absent (with an error only if the lookup failed). */
static PyObject *get(PyObject *d, PyObject *key)
{
    return d && PyDict_CheckExact(d) ? PyDict_GetItemWithError(d, key) : NULL;
}

/* The agent to move (borrowed) when it is the hot case: `agents` a
 * non-empty list holding it, the agent neither terminated nor truncated,
 * its seat an int, the state the core's own; else NULL (an error set only
 * when a lookup failed). */
static PyObject *agent_to_move(aec_t *a, PyObject **term, PyObject **trunc, PyObject **seat)
{
    PyObject *d = a->dict, *agents = get(d, k_agents);
    if (get(d, k_game_state) != a->state || !agents || !PyList_CheckExact(agents) ||
        PyList_GET_SIZE(agents) == 0)
        return NULL;
    PyObject *agent = get(d, k_agent_selection);
    if (!agent || PySequence_Contains(agents, agent) != 1) return NULL;
    *term = get(get(d, k_terminations), agent);
    *trunc = *term ? get(get(d, k_truncations), agent) : NULL;
    if (*term != Py_False || *trunc != Py_False) return NULL;
    *seat = get(get(d, k_seat), agent);
    return *seat && PyLong_CheckExact(*seat) ? agent : NULL;
}

/* d[key] + 1 into d[key]; d[key] an int that is there (checked before). */
static int increment(PyObject *d, PyObject *key)
{
    PyObject *v = get(d, key);
    PyObject *w = v ? PyNumber_Add(v, one) : NULL;
    int rc = w ? PyDict_SetItem(d, key, w) : -1;
    Py_XDECREF(w);
    if (rc && !PyErr_Occurred()) PyErr_SetObject(PyExc_KeyError, key);
    return rc;
}

/* step's bookkeeping once the action is played (AECEnv.step's): the
 * agent's cumulative reward handed out, its steps and the whole moves
 * counted, rewards all zero, then the end or the next agent and the
 * limits. `cum` and `steps` are dicts that hold `agent` (checked before
 * the action was played). */
static PyObject *after_step(aec_t *a, PyObject *agent, PyObject *seat, int next, PyObject *cum,
                            PyObject *steps)
{
    PyObject *d = a->dict;
    if (PyDict_SetItem(cum, agent, zero_float) || increment(steps, agent)) return NULL;
    PyObject *last = get(d, k_last_player);
    int moved = last == seat ? 0 : last ? PyObject_RichCompareBool(seat, last, Py_NE) : 1;
    if (moved < 0 || (moved && (increment(d, k_moves) || PyDict_SetItem(d, k_last_player, seat))))
        return NULL;
    PyObject *rewards = get(d, k_rewards), *agents = get(d, k_agents);
    if ((!rewards || rewards != get(d, k_zero_rewards)) && agents && PyList_CheckExact(agents)) {
        PyObject *zeros = PyDict_New();
        int rc = zeros ? 0 : -1;
        for (Py_ssize_t i = 0; rc == 0 && i < PyList_GET_SIZE(agents); i++)
            rc = PyDict_SetItem(zeros, PyList_GET_ITEM(agents, i), zero_float);
        if (rc == 0) rc = PyDict_SetItem(d, k_rewards, zeros);
        if (rc == 0) rc = PyDict_SetItem(d, k_zero_rewards, zeros);
        Py_XDECREF(zeros);
        if (rc) return NULL;
    }
    if (next < 0) return PyObject_CallMethodNoArgs(a->env, k_end);
    PyObject *possible = get(d, k_possible), *nxt = NULL;
    if (possible && PyList_CheckExact(possible) && next < PyList_GET_SIZE(possible))
        nxt = PyList_GET_ITEM(possible, next);
    if (!nxt || PyDict_SetItem(d, k_agent_selection, nxt)) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_RuntimeError, "Aec: no possible_agents[%d]", next);
        return NULL;
    }
    PyObject *max_moves = get(d, k_max_moves), *max_cycles = get(d, k_max_cycles);
    int limited =
        (max_moves && PyObject_IsTrue(max_moves)) || (max_cycles && PyObject_IsTrue(max_cycles));
    if (!limited) Py_RETURN_NONE;
    PyObject *cp = PyLong_FromLong(next);
    PyObject *r = cp ? PyObject_CallMethodObjArgs(a->env, k_limits, seat, cp, NULL) : NULL;
    Py_XDECREF(cp);
    return r;
}

/* step(action): AECEnv.step. */
static PyObject *aec_step(aec_t *a, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *term, *trunc, *seat, *agent = NULL, *cum = NULL, *steps = NULL;
    long action = -1;
    if (!kwnames && nargs == 1 && PyLong_CheckExact(args[0])) {
        int overflow;
        action = PyLong_AsLongAndOverflow(args[0], &overflow);
        if (action >= 0 && action < a->num_actions) agent = agent_to_move(a, &term, &trunc, &seat);
    }
    if (agent) cum = get(a->dict, k_cumulative);
    if (cum) steps = get(a->dict, k_steps);
    if (steps && !(get(steps, agent) && PyDict_CheckExact(cum))) steps = NULL;
    if (PyErr_Occurred()) return NULL;
    if (!steps) return delegate(a->env, a->step_py, args, nargs, kwnames);
    PyObject *held[4] = {agent, seat, cum, steps}; /* waiting for the lock lets other threads run */
    for (int i = 0; i < 4; i++) Py_INCREF(held[i]);
    int next = -1;
    int n = speed_advance(a->cursor, (int)action, a->dice, a->probs, &next);
    PyObject *r = n == SPEED_PYERR ? NULL
                  : n < 0 ? delegate(a->env, a->step_py, args, nargs, kwnames) /* raises or loses */
                          : after_step(a, agent, seat, next, cum, steps);
    for (int i = 0; i < 4; i++) Py_DECREF(held[i]);
    return r;
}

/* last(): AECEnv.last of the agent to move (observation, cumulative
 * reward, termination, truncation, info). */
static PyObject *aec_last(aec_t *a, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *term, *trunc, *seat, *agent = NULL, *cum = NULL, *info = NULL;
    long p = -1;
    if (!kwnames && nargs == 0) agent = agent_to_move(a, &term, &trunc, &seat);
    if (agent) p = PyLong_AsLong(seat);
    if (p >= 0 && p <= INT_MAX) cum = get(get(a->dict, k_cumulative), agent);
    if (cum) info = get(get(a->dict, k_infos), agent);
    if (PyErr_Occurred()) return NULL;
    if (!info) return delegate(a->env, a->last_py, args, nargs, kwnames);
    Py_INCREF(cum); /* observing may run Python code (a new observation, the lock's wait) */
    Py_INCREF(info);
    PyObject *obs = speed_observe(a->observer, a->cursor, (int)p);
    PyObject *r = obs ? PyTuple_Pack(5, obs, cum, term, trunc, info) : NULL;
    Py_XDECREF(obs);
    Py_DECREF(cum);
    Py_DECREF(info);
    return r;
}

/* agent_iter(max_iter)'s iterator: agent_selection while `agents` is not
 * empty, at most max_iter times (AECEnv.agent_iter's generator, without a
 * Python frame to resume per step). */
typedef struct {
    PyObject ob_base; /* PyObject_HEAD */
    PyObject *env, *dict;
    unsigned long long left;
} agents_t;

static int agents_traverse(agents_t *it, visitproc visit, void *arg)
{
    Py_VISIT(it->env);
    Py_VISIT(it->dict);
    return 0;
}

static void agents_dealloc(agents_t *it)
{
    PyObject_GC_UnTrack(it);
    Py_CLEAR(it->env);
    Py_CLEAR(it->dict);
    Py_TYPE(it)->tp_free((PyObject *)it);
}

/* env.<key>: from its __dict__, else as an attribute (a new reference). */
static PyObject *attr(PyObject *env, PyObject *dict, PyObject *key)
{
    PyObject *v = get(dict, key);
    if (v) return Py_NewRef(v);
    return PyErr_Occurred() ? NULL : PyObject_GetAttr(env, key);
}

static PyObject *agents_next(agents_t *it)
{
    if (it->left == 0) return NULL;
    PyObject *agents = attr(it->env, it->dict, k_agents);
    int more = agents ? PyObject_IsTrue(agents) : -1;
    Py_XDECREF(agents);
    if (more <= 0) {
        it->left = 0;
        return NULL; /* the end, or the error set */
    }
    it->left--;
    return attr(it->env, it->dict, k_agent_selection);
}

static PyTypeObject agents_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "hoyle._speed.AgentIter",
    .tp_basicsize = sizeof(agents_t),
    .tp_dealloc = (destructor)agents_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "AECEnv.agent_iter's iterator",
    .tp_traverse = (traverseproc)agents_traverse,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)agents_next,
};

/* agent_iter(max_iter=2**63): AECEnv.agent_iter. A max_iter that is not
 * an int goes to the Python method (range() refuses it there). */
static PyObject *aec_agent_iter(aec_t *a, PyObject *const *args, Py_ssize_t nargs,
                                PyObject *kwnames)
{
    unsigned long long left = 1ull << 63;
    if (!kwnames && nargs == 1 && PyLong_Check(args[0])) {
        int overflow;
        long long v = PyLong_AsLongLongAndOverflow(args[0], &overflow);
        if (v == -1 && PyErr_Occurred()) return NULL;
        left = overflow > 0 ? ULLONG_MAX : overflow < 0 || v < 0 ? 0 : (unsigned long long)v;
    } else if (kwnames || nargs != 0) {
        return delegate(a->env, a->agent_iter_py, args, nargs, kwnames);
    }
    agents_t *it = PyObject_GC_New(agents_t, &agents_type);
    if (!it) return NULL;
    it->env = Py_NewRef(a->env);
    it->dict = Py_NewRef(a->dict);
    it->left = left;
    PyObject_GC_Track(it);
    return (PyObject *)it;
}

/* action_space(agent): AECEnv.action_space, self.action_spaces[agent]. */
static PyObject *aec_action_space(aec_t *a, PyObject *const *args, Py_ssize_t nargs,
                                  PyObject *kwnames)
{
    PyObject *spaces = kwnames || nargs != 1 ? NULL : get(a->dict, k_action_spaces);
    if (PyErr_Occurred()) return NULL;
    if (!spaces) return delegate(a->env, a->action_space_py, args, nargs, kwnames);
    return PyObject_GetItem(spaces, args[0]);
}

static PyMethodDef aec_methods[] = {
    {"agent_iter", (PyCFunction)(void (*)(void))aec_agent_iter, METH_FASTCALL | METH_KEYWORDS,
     "AECEnv.agent_iter: the agent to act, until none is left or max_iter steps"},
    {"action_space", (PyCFunction)(void (*)(void))aec_action_space, METH_FASTCALL | METH_KEYWORDS,
     "AECEnv.action_space: action_spaces[agent]"},
    {"step", (PyCFunction)(void (*)(void))aec_step, METH_FASTCALL | METH_KEYWORDS,
     "AECEnv.step: the action played and the per-agent dicts updated, one call"},
    {"last", (PyCFunction)(void (*)(void))aec_last, METH_FASTCALL | METH_KEYWORDS,
     "AECEnv.last: (observation, cumulative reward, termination, truncation, info)"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject aec_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "hoyle._speed.Aec",
    .tp_basicsize = sizeof(aec_t),
    .tp_dealloc = (destructor)aec_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Aec(env, (step_py, last_py, action_space_py, agent_iter_py), observer, dice_addr, "
              "probs_addr, num_actions): AECEnv's per-step methods in C",
    .tp_traverse = (traverseproc)aec_traverse,
    .tp_clear = (inquiry)aec_clear,
    .tp_methods = aec_methods,
    .tp_new = aec_new,
};

/* hoyle.spaces.Discrete.sample (hoyle/spaces.py installs it on each
 * Discrete): the hot case, sample(mask) with a one-byte contiguous mask,
 * takes its uniform from the space's `_uniforms` (or `_refill()`) and
 * picks in C; every other call is Discrete.sample in Python. */
typedef struct {
    PyObject ob_base;       /* PyObject_HEAD */
    PyObject *space, *dict; /* the Discrete and its __dict__ */
    PyObject *sample_py;    /* Discrete.sample */
} sampler_t;

static PyObject *k_uniforms, *k_refill, *k_start;

static int sampler_traverse(sampler_t *o, visitproc visit, void *arg)
{
    Py_VISIT(o->space);
    Py_VISIT(o->dict);
    Py_VISIT(o->sample_py);
    return 0;
}

static int sampler_clear(sampler_t *o)
{
    Py_CLEAR(o->space);
    Py_CLEAR(o->dict);
    Py_CLEAR(o->sample_py);
    return 0;
}

static void sampler_dealloc(sampler_t *o)
{
    PyObject_GC_UnTrack(o);
    sampler_clear(o);
    Py_TYPE(o)->tp_free((PyObject *)o);
}

/* Sampler(space, sample_py) */
static PyObject *sampler_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    (void)kw;
    PyObject *space, *sample_py;
    if (!PyArg_ParseTuple(args, "OO", &space, &sample_py)) return NULL;
    PyObject *dict = PyObject_GenericGetDict(space, NULL);
    if (!dict) return NULL;
    sampler_t *o = (sampler_t *)type->tp_alloc(type, 0);
    if (!o) {
        Py_DECREF(dict);
        return NULL;
    }
    o->dict = dict;
    Py_INCREF(space);
    o->space = space;
    Py_INCREF(sample_py);
    o->sample_py = sample_py;
    return (PyObject *)o;
}

/* The next uniform (a new reference): _uniforms.pop(), or _refill() when
 * it is empty, as Discrete.sample takes it; `list` is _uniforms, a list. */
static PyObject *next_uniform(sampler_t *o, PyObject *list)
{
    Py_ssize_t n = PyList_GET_SIZE(list);
    if (n == 0) return PyObject_CallMethodNoArgs(o->space, k_refill);
    PyObject *u = PyList_GET_ITEM(list, n - 1); /* the list's reference, now ours */
    Py_SET_SIZE(list, n - 1);
    return u;
}

/* sample(mask=None, probability=None): Discrete.sample. */
static PyObject *sampler_sample(sampler_t *o, PyObject *const *args, Py_ssize_t nargs,
                                PyObject *kwnames)
{
    PyObject *start = NULL, *list = NULL;
    Py_buffer b = {0};
    int viewed = 0;
    if (!kwnames && nargs == 1 && args[0] != Py_None) {
        start = get(o->dict, k_start);
        list = get(o->dict, k_uniforms);
    }
    if (PyErr_Occurred()) return NULL;
    if (start && PyLong_CheckExact(start) && list && PyList_CheckExact(list)) {
        if (speed_view(args[0], SPEED_BYTE, 0, &b) < 0) PyErr_Clear();
        if (b.buf && b.itemsize != 1)
            speed_release(&b);
        else
            viewed = b.buf != NULL;
    }
    if (!viewed) return delegate(o->space, o->sample_py, args, nargs, kwnames);
    PyObject *u_obj = next_uniform(o, list);
    double u = u_obj ? PyFloat_AsDouble(u_obj) : -1.0;
    Py_XDECREF(u_obj);
    Py_ssize_t k = u == -1.0 && PyErr_Occurred() ? -2 : speed_pick(b.buf, b.len, u);
    speed_release(&b);
    if (k == -2) return NULL;
    PyObject *kk = PyLong_FromSsize_t(k < 0 ? 0 : k);
    PyObject *r = kk ? PyNumber_Add(start, kk) : NULL;
    Py_XDECREF(kk);
    return r;
}

static PyMethodDef sampler_methods[] = {
    {"sample", (PyCFunction)(void (*)(void))sampler_sample, METH_FASTCALL | METH_KEYWORDS,
     "Discrete.sample: a masked uniform choice in C"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject sampler_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "hoyle._speed.Sampler",
    .tp_basicsize = sizeof(sampler_t),
    .tp_dealloc = (destructor)sampler_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Sampler(space, sample_py): hoyle.spaces.Discrete.sample in C",
    .tp_traverse = (traverseproc)sampler_traverse,
    .tp_clear = (inquiry)sampler_clear,
    .tp_methods = sampler_methods,
    .tp_new = sampler_new,
};

static int intern(PyObject **out, const char *name)
{
    *out = PyUnicode_InternFromString(name);
    return *out ? 0 : -1;
}

int speed_aec_add(PyObject *module)
{
    static const struct {
        PyObject **key;
        const char *name;
    } names[] = {
        {&k_game_state, "game_state"},
        {&k_agents, "agents"},
        {&k_agent_selection, "agent_selection"},
        {&k_terminations, "terminations"},
        {&k_truncations, "truncations"},
        {&k_cumulative, "_cumulative_rewards"},
        {&k_steps, "steps"},
        {&k_rewards, "rewards"},
        {&k_zero_rewards, "_zero_rewards"},
        {&k_moves, "moves"},
        {&k_last_player, "_last_player"},
        {&k_max_moves, "max_moves"},
        {&k_max_cycles, "max_cycles"},
        {&k_possible, "possible_agents"},
        {&k_seat, "_seat"},
        {&k_infos, "infos"},
        {&k_end, "_end"},
        {&k_limits, "_limits"},
        {&k_uniforms, "_uniforms"},
        {&k_refill, "_refill"},
        {&k_start, "start"},
        {&k_action_spaces, "action_spaces"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (intern(names[i].key, names[i].name)) return -1;
    if (!(zero_float = PyFloat_FromDouble(0.0)) || !(one = PyLong_FromLong(1))) return -1;
    if (PyType_Ready(&aec_type) < 0 || PyType_Ready(&sampler_type) < 0 ||
        PyType_Ready(&agents_type) < 0)
        return -1;
    if (PyModule_AddType(module, &aec_type) < 0) return -1;
    return PyModule_AddType(module, &sampler_type);
}
