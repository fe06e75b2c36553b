"""test_errors.py — bad input raises hoyle.Error (a ValueError) with the
library's one-line message, leaves the state as it was, and never crashes
the interpreter: on every registered variant."""
import pytest

import hoyle

JUNK = ["", "zz", "99x99", "\x01", "a" * 5000, "é", "-1", "1-", "  "]


def one_line(e):
    msg = str(e.value)
    assert msg and "\n" not in msg
    return msg


def test_bad_specs():
    for spec in ["nosuchgame", "checkers(variant=nope)", "gobang(board=99)", "checkers(", ""]:
        with pytest.raises(ValueError) as e:
            hoyle.Game(spec)
        one_line(e)
    with pytest.raises(ValueError):
        hoyle.Game(None)
    with pytest.raises(ValueError):
        hoyle.Game("checkers\0x")


def test_bad_input_changes_nothing(spec):
    g = hoyle.Game(spec)
    s = g.new_state()
    while s.is_chance:
        s.apply(s.legal_actions()[0])
    before, h = s.position(), s.hash
    legal = set(s.legal_actions())
    illegal = next(a for a in range(g.num_actions + 1) if a not in legal)
    for a in [illegal, -1, g.num_actions, 2**31 - 1, -(2**31), 2**40, "3", 1.5, None]:
        with pytest.raises(ValueError) as e:
            s.apply(a)
        one_line(e)
        with pytest.raises(ValueError):
            s.step(a)
    for t in JUNK:
        for parse in (s.action_from_string, s.move_from_string, s.apply_move, g.position):
            with pytest.raises(ValueError) as e:
                parse(t)
            one_line(e)
    for a in [-1, g.num_actions, 2**40]:
        with pytest.raises(ValueError):
            s.action_to_string(a)
    for p in [-1, g.num_players, 7, "0"]:
        with pytest.raises(ValueError):
            s.observation(p)
    for move in [[], [illegal], [-5], [next(iter(legal))] * 40]:
        with pytest.raises(ValueError):
            s.move_to_string(move)
    with pytest.raises(ValueError):
        g.random_playouts(-1)
    with pytest.raises(ValueError):
        g.random_playouts(2, seed="x")
    with pytest.raises(ValueError):
        hoyle.Agent(g, "random", seed=1.5)
    with pytest.raises(ValueError):
        hoyle.perft(g, -1)
    assert s.position() == before and s.hash == h


def test_terminal_state_refuses(spec):
    g = hoyle.Game(spec)
    s = g.new_state()
    end = g.random_playouts(1, seed=5)
    assert end.lengths[0] > 0
    import random

    rng = random.Random(5)
    while not s.is_terminal:
        s.apply(rng.choice(s.legal_actions()))
    with pytest.raises(ValueError) as e:
        s.apply(0)
    assert "over" in one_line(e)
    with pytest.raises(ValueError):
        s.action_from_string("1")
    with pytest.raises(ValueError):
        g.random_playouts(3, state=s)
    for kind in ["random", "mcts(sims=8)", "alphabeta(depth=1)"]:
        agent = hoyle.Agent(g, kind)
        with pytest.raises(ValueError):
            agent.act(s)
        with pytest.raises(ValueError):
            agent.observe(0, s)
    assert s.is_terminal


def test_chance_state_refuses_agents(spec):
    g = hoyle.Game(spec)
    s = g.new_state()
    import random

    rng = random.Random(1)
    for _ in range(g.max_game_length):
        if s.is_chance or s.is_terminal:
            break
        s.apply(rng.choice(s.legal_actions()))
    if not s.is_chance:
        pytest.skip(f"{spec} reached no chance node")
    for kind in ["random", "mcts(sims=8)", "alphabeta(depth=1)"]:
        with pytest.raises(ValueError) as e:
            hoyle.Agent(g, kind).act(s)
        assert "chance" in one_line(e)


def test_bad_agents():
    g = hoyle.Game("gobang(board=8,men=12)")
    for spec in ["nosuch", "mcts(sims=-5)", "mcts(bogus=1)", "mcts(sims=", ""]:
        with pytest.raises(ValueError) as e:
            hoyle.Agent(g, spec)
        one_line(e)
    a = hoyle.Agent(g, "random")
    with pytest.raises(ValueError):
        a.observe(g.num_actions + 3)
    # the C side refuses by itself (the Python side would only notice afterwards)
    s = g.new_state()
    for bad in (-1, g.num_actions, 10**6):
        assert hoyle._clib.api_agent_observe(a._a, g._g, s._s, bad) == -1
    assert a.state.position() == s.position()
    with pytest.raises(ValueError):
        a.act(hoyle.Game("checkers").new_state())
    with pytest.raises(ValueError):
        hoyle.match("gobang(board=8,men=12)", "random", "nosuch", games=2)
    with pytest.raises(ValueError):
        hoyle.match("gobang(board=8,men=12)", "random", "random", games=0)


def test_bad_files(tmp_path):
    for reader in (hoyle.records, hoyle.samples):
        with pytest.raises(ValueError) as e:
            reader(str(tmp_path / "missing.h5"))
        assert "missing.h5" in one_line(e)
        junk = tmp_path / "junk.h5"
        junk.write_bytes(b"not an hdf5 file" * 10)
        with pytest.raises(ValueError):
            reader(str(junk))
        with pytest.raises(ValueError):
            reader(5)
