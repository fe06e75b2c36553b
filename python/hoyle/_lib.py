"""_lib.py — finds libhoyle.so and declares the part of its C API the package calls.

cffi in ABI mode: the declarations below are parsed at import time and the
library is dlopen()ed, so nothing is compiled when the package is installed.
They copy api/api.h and the module headers; the structs FFIs declare by hand
are checked against the library's own sizeof (api_sizeof) at load time, so a
layout that drifted is an ImportError, not memory corruption.

Where the library is looked for, first match wins:
  1. $HOYLE_LIB (a path to libhoyle.so);
  2. libhoyle.so next to this package (python/hoyle/libhoyle.so);
  3. the build trees of the checkout holding the package: build/api/, then
     any build*/api/ (build-asan/api/ ...);
  4. the system's search path (an installed libhoyle.so.0, LD_LIBRARY_PATH).
"""
import glob
import importlib.machinery
import importlib.util
import os

import cffi

CDEF = r"""
typedef struct game game_t;
typedef struct agent agent_t;
typedef struct h5rec h5rec_t;

typedef struct api_game_info {
    const char *name;
    const char *spec;
    int num_players;
    int num_actions;
    int max_legal;
    int max_chance_outcomes;
    int max_game_length;
    int obs_shape[3];
    int num_symmetries;
    size_t state_size;
    int num_seats;
} api_game_info_t;

typedef struct agent_game_result {
    double returns[2];
    int end;
    int forfeit_player;
    int num_actions;
    char error[512];  /* HOYLE_ERROR_MAX */
} agent_game_result_t;

typedef struct game_record {
    char *game_spec;
    char *agent_spec[2];
    char *opening_name;
    int32_t opening_len;
    int32_t *opening_actions;
    double returns[2];
    double result;
    int end;
    int32_t num_actions;
    int32_t *actions;
    float *action_ms;
    uint64_t seed;
    int32_t pairing;
    int32_t round;
    int32_t game_index;
} game_record_t;

typedef struct sample_set {
    int obs_shape[3];
    int obs_size;
    int num_actions;
    int64_t n, cap;
    float *obs;
    float *policy;
    uint8_t *legal;
    float *value;
    int64_t *game_id;
    int32_t *move;
    uint8_t *flags;
} sample_set_t;

typedef struct rng {
    uint64_t s[4];
} rng_t;
void rng_init(rng_t *r, uint64_t seed);

typedef struct api_vec api_vec_t;
typedef struct api_vec_out {
    float *obs;
    int8_t *mask;
    int32_t *legal;
    int32_t *num_legal;
    float *rewards;
    int8_t *terminated;
    int8_t *truncated;
    float *final_obs;
} api_vec_out_t;

const char *hoyle_last_error(void);
void hoyle_clear_error(void);
uint64_t rng_mix(uint64_t x);

int api_init(void);
const char *api_version(void);
size_t api_sizeof(const char *type);
int api_registry_size(void);
const char *api_registry_name(int i);
const char *api_registry_description(int i);
const char *api_registry_variant(int i, int j);

int game_create(const char *spec, const game_t **out);
void game_free(const game_t *g);
void api_game_info(const game_t *g, api_game_info_t *out);
void *api_state_new(const game_t *g);
void *api_state_clone(const game_t *g, const void *s);
void api_state_copy(const game_t *g, void *dst, const void *src);
void api_state_free(void *s);
int api_state_current_player(const game_t *g, const void *s);
int api_state_current_seat(const game_t *g, const void *s);
int api_state_legal_actions(const game_t *g, const void *s, int *out);
int api_state_step(const game_t *g, void *s, int action, int *legal, int known);
void api_state_returns(const game_t *g, const void *s, double *out);
uint64_t api_state_hash(const game_t *g, const void *s);
int api_state_observe(const game_t *g, const void *s, int player, float *out);
int api_state_observe_mask(const game_t *g, const void *s, int player, float *obs, int8_t *mask,
                           int *legal, int known);
int api_state_advance(const game_t *g, void *s, int action, int *legal, int known, rng_t *dice,
                      double *probs, int *player);
int api_state_settle(const game_t *g, void *s, int *legal, rng_t *dice, double *probs, int *player);
int api_state_chance_outcomes(const game_t *g, const void *s, int *actions, double *probs);
int api_move_to_string(const game_t *g, const void *s, const int *actions, int n, char *buf,
                       size_t cap);
int game_apply_checked(const game_t *g, void *s, int action);
int game_state_to_string(const game_t *g, const void *s, char *buf, size_t cap);
int game_position_to_string(const game_t *g, const void *s, char *buf, size_t cap);
int game_position_from_string(const game_t *g, const char *text, void *s);
int game_action_to_string(const game_t *g, const void *s, int action, char *buf, size_t cap);
int game_action_from_string(const game_t *g, const void *s, const char *text, int *action);
int game_move_from_string(const game_t *g, const void *s, const char *text, int *actions, int cap);
uint64_t game_perft(const game_t *g, const void *s, int depth);

int api_agent_create(const game_t *g, const char *spec, uint64_t seed, agent_t **out);
int agent_act(agent_t *a, const void *state, int *action);
int api_agent_observe(agent_t *a, const game_t *g, const void *s, int action);
int api_play(const game_t *g, agent_t *const *agents, const void *start, uint64_t chance_seed,
             int max_moves, int32_t *actions, agent_game_result_t *out);
void agent_reset(agent_t *a);
void agent_free(agent_t *a);
const char *agent_spec(const agent_t *a);
int agent_reseed(agent_t *a, uint64_t seed);
int agent_game_capacity(const game_t *g);
int api_random_playouts(const game_t *g, const void *start, int64_t n, uint64_t seed,
                        double *returns, int32_t *lengths);

int api_vec_create(const game_t *g, int n, const char *opponent, int player, int max_moves,
                   int illegal_lose, api_vec_t **out);
void api_vec_free(api_vec_t *v);
void api_vec_bind(api_vec_t *v, const api_vec_out_t *out);
int api_vec_reset(api_vec_t *v, const uint64_t *seeds);
int api_vec_step(api_vec_t *v, const int32_t *actions);
int api_vec_state(const api_vec_t *v, int i, void *out);

int h5rec_open_read(const char *path, h5rec_t **out);
int64_t h5rec_count(const h5rec_t *h);
int h5rec_read(h5rec_t *h, int64_t index, game_record_t *out);
int h5rec_close(h5rec_t *h);
void game_record_free(game_record_t *r);
const char *record_end_name(int end);

int api_samples_game_spec(const char *path, char *buf, size_t cap);
void sample_set_init(sample_set_t *s, const int obs_shape[3], int num_actions);
void sample_set_done(sample_set_t *s);
int samples_read_shard(const char *path, sample_set_t *s, int64_t *games_out);
"""

# the structs declared above by hand, checked against the library's sizeof
CHECKED_STRUCTS = ("api_game_info_t", "agent_game_result_t", "game_record_t", "sample_set_t", "api_vec_out_t",
                   "rng_t")

PLAYER_CHANCE = -1
PLAYER_TERMINAL = -2
GAME_MAX_CHAIN = 32
TEXT_MAX = 4096  # GAME_TEXT_MAX: enough for any board drawing or position text
EFULL = -4


def candidates():
    """The paths tried, in order (see the module docstring)."""
    here = os.path.dirname(os.path.abspath(__file__))
    paths = []
    env = os.environ.get("HOYLE_LIB")
    if env:
        return [env]  # set: nothing else is tried
    paths.append(os.path.join(here, "libhoyle.so"))
    root = os.path.dirname(os.path.dirname(here))  # python/hoyle -> checkout
    paths.append(os.path.join(root, "build", "api", "libhoyle.so"))
    paths += sorted(glob.glob(os.path.join(root, "build*", "api", "libhoyle.so")))
    paths += ["libhoyle.so.0", "libhoyle.so"]
    return paths


def load():
    ffi = cffi.FFI()
    ffi.cdef(CDEF)
    errors = []
    for path in candidates():
        if os.sep in path and not os.path.exists(path):
            errors.append(f"{path}: no such file")
            continue
        try:
            lib = ffi.dlopen(path)
        except OSError as e:
            errors.append(f"{path}: {e}")
            continue
        for name in CHECKED_STRUCTS:
            size = lib.api_sizeof(name.encode())
            if size != ffi.sizeof(name):
                raise ImportError(
                    f"hoyle: {path}: {name} is {size} bytes in the library, "
                    f"{ffi.sizeof(name)} in hoyle/_lib.py (rebuild, or update the declarations)"
                )
        if lib.api_init() < 0:
            raise ImportError("hoyle: " + ffi.string(lib.hoyle_last_error()).decode())
        return ffi, lib, path
    raise ImportError("hoyle: libhoyle.so not found (set HOYLE_LIB): " + "; ".join(errors))


ffi, lib, path = load()


def load_speed():
    """hoyle._speed (python/hoyle/_speed.c), found in the package or beside
    the library just loaded (hoyle/game.py binds it to that library's
    functions); None
    where it was not built, or with $HOYLE_NO_SPEED=1 (the cffi paths then
    do the same work, slower)."""
    if os.environ.get("HOYLE_NO_SPEED") == "1":
        return None
    dirs = [os.path.dirname(os.path.abspath(__file__))]
    if os.sep in path:
        dirs.append(os.path.dirname(os.path.realpath(path)))
    for d in dirs:
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            file = os.path.join(d, "_speed" + suffix)
            if not os.path.exists(file):
                continue
            spec = importlib.util.spec_from_file_location("hoyle._speed", file)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            return mod  # hoyle/game.py binds it to the library (bind_speed)
    return None


speed = load_speed()


class Error(ValueError):
    """A hoyle call failed: the message is the library's one-line message;
    code is its status (HOYLE_EINVAL -1, ENOMEM -2, EIO -3, EFULL -4,
    ESTATE -5, EUNSUP -6)."""

    def __init__(self, message, code=-1):
        super().__init__(message)
        self.code = code


class WrongType(Error, TypeError):
    """An argument of the wrong Python type (None for a game, a float for an
    action): both a hoyle.Error (ValueError) and a TypeError, so either
    except clause catches it."""


def last_error():
    return ffi.string(lib.hoyle_last_error()).decode("utf-8", "replace")


def check(rc):
    """rc when >= 0, else raise Error with the library's message."""
    if rc < 0:
        raise Error(last_error(), rc)
    return rc


def text(s, what="text"):
    """A str argument as bytes for a char *: ValueError for other types and NULs."""
    if not isinstance(s, str):
        raise WrongType(f"{what}: expected a str, got {type(s).__name__}")
    if "\0" in s:
        raise Error(f"{what}: contains a NUL character")
    return s.encode("utf-8")


def string(p):
    return ffi.string(p).decode("utf-8", "replace") if p != ffi.NULL else None
