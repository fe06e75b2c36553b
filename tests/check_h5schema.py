#!/usr/bin/env python3
"""Check a file written by tests/h5rec_fixture against docs/formats.md, using
only h5py and numpy (no hoyle code): the schema is readable as documented.
Usage: check_h5schema.py FILE.h5"""
import sys

import h5py
import numpy as np


def s(x):
    """h5py gives str for vlen attributes and bytes inside datasets."""
    return x.decode() if isinstance(x, bytes) else str(x)


def main(path):
    f = h5py.File(path, "r")
    a = f.attrs
    assert s(a["hoyle_schema"]) == "hoyle.game_records", a["hoyle_schema"]
    assert int(a["hoyle_schema_version"]) == 1
    assert s(a["program"]) == "hoyle"
    assert s(a["program_version"]) == "fixture"
    assert s(a["created"]) == "2023-11-14T22:13:20Z", a["created"]
    assert s(a["config"]) == "games: [checkers]\nmatch: {games: 2}\n"
    assert s(a["config_path"]) == "configs/fixture.yaml"
    assert len(s(a["config_hash"])) == 16
    assert len(s(a["file_id"])) == 16
    games_attr = [s(g) for g in a["games"]]
    assert games_attr == ["checkers(variant=english)", "gobang(board=8,men=12)"], games_attr

    g = f["games"]
    assert g.shape == (4,) and g.chunks is not None and g.maxshape == (None,)
    assert g.compression == "gzip" and g.shuffle
    names = g.dtype.names
    assert names == ("game", "pairing", "round", "game_index", "agent", "opening", "seed",
                     "result", "returns", "termination", "num_actions", "actions_offset"), names
    assert g.dtype["agent"].shape == (2,) and g.dtype["returns"].shape == (2,)
    assert g.dtype["seed"] == np.uint64 and g.dtype["result"] == np.float64
    ends = h5py.check_enum_dtype(g.dtype["termination"])
    assert ends == {"rules": 0, "move_limit": 1, "resign": 2, "error": 3}, ends

    rows = g[:]
    agents = [s(x) for x in f["agents"][:]]
    assert agents == ["random", "mcts(sims=10)"], agents
    openings = f["openings"][:]
    assert openings.dtype.names == ("name", "actions_offset", "num_actions")
    assert [s(o["name"]) for o in openings] == ["center", "ab"]
    oa = f["opening_actions"][:]
    assert oa.dtype == np.int32 and list(oa) == [40, 5, 6]
    actions, ms = f["actions"][:], f["action_ms"][:]
    assert actions.dtype == np.int32 and ms.dtype == np.float32
    assert s(f["action_ms"].attrs["units"]) == "ms"

    def game_actions(r):
        o, n = int(r["actions_offset"]), int(r["num_actions"])
        return list(actions[o:o + n]), list(ms[o:o + n])

    def opening(r):
        if r["opening"] < 0:
            return None, []
        o = openings[r["opening"]]
        off = int(o["actions_offset"])
        return s(o["name"]), list(oa[off:off + int(o["num_actions"])])

    expect = [
        # game, agents, opening, actions, ms, returns, result, end, seed, (pairing, round, index)
        (0, ["random", "mcts(sims=10)"], (None, []), [1, 2, 3], [0.5, 1.5, 2.5], [1, -1], 1.0,
         "rules", 42, (0, 0, 0)),
        (1, ["mcts(sims=10)", "random"], ("center", [40]), [40, 7], [0, 0], [0, 0], 0.5,
         "move_limit", 9223372036854775813, (1, 0, 1)),
        (0, ["random", None], ("ab", [5, 6]), [], [], [-1, 1], 0.0, "resign", 7, (2, 1, 0)),
        (0, ["random", "mcts(sims=10)"], ("center", [40]), [], [], [0, 0], 0.5, "error", 8,
         (0, 1, 3)),
    ]
    end_names = {v: k for k, v in ends.items()}
    for i, (game, ag, op, act, tms, ret, res, end, seed, pri) in enumerate(expect):
        r = rows[i]
        assert r["game"] == game, (i, r)
        got_agents = [agents[k] if k >= 0 else None for k in r["agent"]]
        assert got_agents == ag, (i, got_agents)
        assert opening(r) == op, (i, opening(r))
        got_act, got_ms = game_actions(r)
        assert got_act == act and got_ms == tms, (i, got_act, got_ms)
        assert list(r["returns"]) == ret and r["result"] == res, (i, r)
        assert end_names[int(r["termination"])] == end, (i, r["termination"])
        assert int(r["seed"]) == seed, (i, r["seed"])
        assert (int(r["pairing"]), int(r["round"]), int(r["game_index"])) == pri, (i, r)
    # The documented one-liners work: scores of player 0, game lengths.
    assert list(g["result"]) == [1.0, 0.5, 0.0, 0.5]
    assert list(np.diff(np.append(g["actions_offset"], len(actions)))) == list(g["num_actions"])
    print("check_h5schema: %s OK (%d games)" % (path, len(rows)))


if __name__ == "__main__":
    main(sys.argv[1])
