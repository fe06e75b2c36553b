"""test_agents.py — agents play through the Python API; match, perft and the
random batch helper give the CLI's numbers for the same seeds."""
import json

import pytest

import hoyle
from conftest import SLOW, run


def test_agent_plays_every_game(spec):
    """Two agents play a whole game by act/observe, every action observed."""
    g = hoyle.Game(spec)
    agents = [hoyle.Agent(g, "mcts(sims=8)", seed=p + 1) for p in range(g.num_players)]
    s = g.new_state()
    import random

    rng = random.Random(2)
    while not s.is_terminal:
        if s.is_chance:
            a = rng.choice(s.legal_actions())
        else:
            a = agents[s.current_player].act(s)
            assert a in s.legal_actions()
        for ag in agents:
            ag.observe(a)  # the agent's own copy of the game advances
        s.apply(a)
    for ag in agents:
        assert ag.state.position() == s.position()


def test_same_seed_same_actions():
    g = hoyle.Game("checkers")
    a1, a2 = hoyle.Agent(g, "mcts(sims=64)", seed=9), hoyle.Agent(g, "mcts(sims=64)", seed=9)
    for _ in range(6):
        x, y = a1.act(), a2.act()
        assert x == y
        a1.observe(x)
        a2.observe(y)


def test_mcts_beats_random():
    r = hoyle.match("gobang(board=8,men=12)", "mcts(sims=64)", "random", games=4, seed=3)
    assert r["wins"] >= 3, r


@pytest.mark.parametrize("game,a,b", [("gobang(board=8,men=12)", "random", "mcts(sims=8)"), ("checkers", "random", "random")])
def test_match_equals_cli(cli, game, a, b):
    n = 6 if SLOW else 2
    py = hoyle.match(game, a, b, games=n, seed=11, max_moves=0)
    c = json.loads(run(cli, "match", game, a, b, "--games", str(n), "--seed", "11", "--json").stdout)
    assert (py["wins"], py["draws"], py["losses"]) == (c["wins"], c["draws"], c["losses"])
    assert py["game"] == c["game"] and py["a"] == c["a"] and py["b"] == c["b"]
    assert round(py["mean_length"], 1) == c["mean_length"]


def test_perft_equals_cli(cli, spec):
    g = hoyle.Game(spec)
    depth = 3
    c = json.loads(run(cli, "perft", spec, str(depth), "--json").stdout)
    assert hoyle.perft(g, depth) == c["nodes"]
    assert hoyle.perft(spec, 0) == 1


def test_random_playouts_equal_cli(cli, spec):
    g = hoyle.Game(spec)
    n = 200 if SLOW else 20
    r = g.random_playouts(n, seed=7)
    c = json.loads(run(cli, "random", spec, "--games", str(n), "--seed", "7", "--json").stdout)
    assert round(float(r.lengths.mean()), 3) == c["length_mean"]
    assert int(r.lengths.min()) == c["length_min"] and int(r.lengths.max()) == c["length_max"]
    if g.num_players == 2:
        assert [int((r.returns[:, 0] > r.returns[:, 1]).sum()), int((r.returns[:, 1] > r.returns[:, 0]).sum())] == c["wins"]


def test_play_move_limit():
    g = hoyle.Game("checkers")
    r = hoyle.play(g, [hoyle.Agent(g, "random", 1), hoyle.Agent(g, "random", 2)], seed=1, max_moves=4)
    assert r["end"] == "move_limit" and r["returns"] == [0.0, 0.0]
    assert len(r["actions"]) >= 4
    s = g.new_state()
    for a in r["actions"]:
        s.apply(int(a))
