#!/usr/bin/env python3
"""Check a file written by `hoyle tournament` against docs/formats.md, with
h5py and numpy only (no hoyle code): root attributes, dataset layout, and
values that must hold for any tournament (one row per scheduled job, both
colours of every opening, openings as prefixes of the games, results that
match the returns).

Usage:
  check_tournament_h5.py FILE.h5 EXPECTED_GAMES AGENT [AGENT ...]
  check_tournament_h5.py --dump FILE.h5      # one line per game, sorted by job
"""
import sys

import h5py
import numpy as np


def s(x):
    return x.decode() if isinstance(x, bytes) else str(x)


def games_of(f):
    """(job index, game spec, seat agents, opening name, result, termination, actions)."""
    g = f["games"][:]
    agents = [s(x) for x in f["agents"][:]]
    openings = f["openings"][:]
    specs = [s(x) for x in f.attrs["games"]]
    actions = f["actions"][:]
    ends = {v: k for k, v in h5py.check_enum_dtype(f["games"].dtype["termination"]).items()}
    out = []
    for r in g:
        o, n = int(r["actions_offset"]), int(r["num_actions"])
        out.append((int(r["game_index"]), specs[int(r["game"])],
                    tuple(agents[k] for k in r["agent"]),
                    s(openings[int(r["opening"])]["name"]) if r["opening"] >= 0 else "",
                    float(r["result"]), ends[int(r["termination"])],
                    tuple(int(a) for a in actions[o:o + n])))
    return sorted(out)


def dump(path):
    with h5py.File(path, "r") as f:
        for row in games_of(f):
            print(*row, sep="\t")


def check(path, expected, agent_names):
    f = h5py.File(path, "r")
    a = f.attrs
    assert s(a["hoyle_schema"]) == "hoyle.game_records", a["hoyle_schema"]
    assert int(a["hoyle_schema_version"]) == 1
    assert s(a["program"]) == "hoyle"
    assert len(s(a["program_version"])) > 0
    config = s(a["config"])
    assert "name:" in config and "agents:" in config, config
    # neither changes the games: a file may be resumed with other workers or after a move
    assert "workers:" not in config, "workers must not be part of the stored config"
    assert "output:" not in config, "output must not be part of the stored config"
    assert len(s(a["config_hash"])) == 16
    specs = [s(x) for x in a["games"]]
    assert len(specs) >= 1 and all("(" in x for x in specs), specs  # canonical specs

    g = f["games"]
    assert g.chunks is not None and g.maxshape == (None,)
    assert g.compression == "gzip" and g.shuffle
    for name in ("actions", "action_ms", "opening_actions"):
        d = f[name]
        assert d.chunks is not None and d.compression == "gzip" and d.shuffle, name
    assert f["actions"].dtype == np.int32 and f["action_ms"].dtype == np.float32
    assert s(f["action_ms"].attrs["units"]) == "ms"
    rows = g[:]
    assert len(rows) == expected, (len(rows), expected)

    agents = [s(x) for x in f["agents"][:]]
    assert set(agents) <= set(agent_names), (agents, agent_names)
    openings = f["openings"][:]
    oa = f["opening_actions"][:]
    actions, ms = f["actions"][:], f["action_ms"][:]
    assert int(rows["num_actions"].sum()) == len(actions) == len(ms)
    assert (ms >= 0).all()

    jobs = sorted(int(x) for x in rows["game_index"])
    assert jobs == list(range(expected)), "job indices must be 0..N-1, each once"
    assert len(set(int(x) for x in rows["seed"])) == expected, "one seed per job"
    ends = h5py.check_enum_dtype(g.dtype["termination"])
    pairs = {}
    for r in rows:
        a0, a1 = (agents[k] for k in r["agent"])
        assert a0 != a1
        res, ret = float(r["result"]), list(r["returns"])
        assert res in (0.0, 0.5, 1.0)
        assert res == (1.0 if ret[0] > ret[1] else 0.0 if ret[0] < ret[1] else 0.5), (res, ret)
        assert int(r["termination"]) in ends.values()
        if int(r["termination"]) == ends["move_limit"]:
            assert res == 0.5
        o, n = int(r["actions_offset"]), int(r["num_actions"])
        op = openings[int(r["opening"])]
        oo, on = int(op["actions_offset"]), int(op["num_actions"])
        assert n > on, "a game continues after its opening"
        assert list(actions[o:o + on]) == list(oa[oo:oo + on]), "the opening starts the game"
        assert (ms[o:o + on] == 0).all(), "opening actions take no thinking time"
        key = (int(r["game"]), int(r["pairing"]), int(r["opening"]), int(r["round"]))
        pairs.setdefault(key, []).append((a0, a1))
    for key, seats in pairs.items():
        assert len(seats) == 2 and seats[0] == seats[1][::-1], (key, seats)
    # the first player's score, counting draws as one-half, as seed 001 does
    first = float(np.mean(rows["result"]))
    print("check_tournament_h5: %s OK (%d games, %d openings, first player %.1f%%)"
          % (path, len(rows), len(openings), 100 * first))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--dump":
        dump(sys.argv[2])
    elif len(sys.argv) >= 5:
        check(sys.argv[1], int(sys.argv[2]), sys.argv[3:])
    else:
        sys.exit(__doc__)
