"""test_data.py — a tournament file and a sample shard made by the `hoyle`
program read back through hoyle.records() / hoyle.samples() (the C readers),
with move text decoded by the game."""
import numpy as np

import hoyle
from conftest import ROOT, run


def test_tournament_records(cli, tmp_path):
    out = tmp_path / "t.h5"
    cfg = tmp_path / "t.yaml"
    cfg.write_text(
        f"""name: pytest
games: [checkers, "gobang(board=8,men=12)"]
agents: [random, greedy]
schedule: round-robin
openings: {{checkers: "book:{ROOT}/configs/books/checkers_two_move.txt", gobang: "random:2"}}
openings_per_pairing: 2
games_per_opening: 1
max_moves: 150
workers: 1
seed: 5
output: {out}
anchor: random
"""
    )
    run(cli, "tournament", str(cfg), "--quiet")
    recs = hoyle.records(str(out))
    # 1 pairing x 2 games x 2 openings x 2 colours
    assert len(recs) == 8
    assert {r.game_spec for r in recs} == {"checkers(variant=english)", hoyle.Game("gobang(board=8,men=12)").spec}
    for r in recs:
        assert sorted(r.agents) == ["greedy", "random"]
        assert r.end in ("rules", "move_limit", "resign", "error")
        assert r.actions.dtype == np.int32 and len(r.action_ms) == len(r.actions)
        assert (r.actions[: len(r.opening_actions)] == r.opening_actions).all()
        final = r.final_state()
        if r.end == "rules":
            assert final.is_terminal and final.returns() == r.returns
        assert r.result == (r.returns[0] + 1) / 2
        moves = r.moves()
        assert len(moves) == len(r.actions) and all(isinstance(m, str) and m for m in moves)
        # the text reads back to the actions, position by position
        s = r.game.new_state()
        for a, m in zip(r.actions, moves):
            assert s.action_from_string(m) == a
            s.apply(int(a))


def test_sample_shard(cli, tmp_path):
    out = tmp_path / "s.h5"
    run(cli, "selfplay", "gobang(board=5,men=0)", "games=3,parallel=3,sims=8,full_prob=1",
        "--output", str(out), "--json")
    s = hoyle.samples(str(out))
    g = hoyle.Game("gobang(board=5,men=0)")
    assert s.game_spec == g.spec and s.games == 3 and len(s) > 3
    n = len(s)
    assert s.obs.shape == (n,) + g.obs_shape and s.policy.shape == (n, g.num_actions)
    assert np.allclose(s.policy.sum(axis=1), 1, atol=1e-4)
    assert not (s.policy[~s.legal] > 0).any()
    assert set(np.unique(s.game_id)) <= set(range(3)) and (np.abs(s.value) <= 1).all()
    # the first sample of each game is the initial position
    first = s.obs[s.move == 0]
    assert len(first) == 3 and np.allclose(first[0], g.new_state().observation())
