"""test_threads.py — objects used from several threads at once (cffi lets
threads run while C works): an Agent, a State and a Game shared between
threads stay consistent (each Agent and State serialises the calls into C
on it: hoyle/agent.py, hoyle/game.py), and the wrong argument types raise
TypeError. Under the ASan build (tests/cli/python.sh) a missing lock is a
heap-buffer-overflow report, here a wrong answer or a crash."""
import threading

import pytest

import hoyle

THREADS = 6


def run_threads(fn, n=THREADS):
    errors = []

    def body(i):
        try:
            fn(i)
        except Exception as e:  # reported below, with the thread's number
            errors.append((i, repr(e)))

    ts = [threading.Thread(target=body, args=(i,)) for i in range(n)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert errors == []


def test_one_agent_many_threads():
    g = hoyle.Game("gobang(board=8,men=12)")
    agent = hoyle.Agent(g, "mcts(sims=400)", seed=1)
    s = g.new_state()
    s.apply(s.legal_actions()[3])
    legal = set(s.legal_actions())

    def search(i):
        for _ in range(4):
            assert agent.act(s) in legal

    run_threads(search)


def test_one_agent_playing_many_games():
    g = hoyle.Game("checkers")
    agent = hoyle.Agent(g, "mcts(sims=50)", seed=2)
    run_threads(lambda i: hoyle.play(g, [agent, agent], seed=i, max_moves=20), 4)


def test_one_state_many_threads():
    """One thread plays random games on a shared state while the others read
    it: every read sees a whole position (its text reads back as itself)."""
    g = hoyle.Game("checkers")
    s = g.new_state()

    def body(i):
        import random

        rng = random.Random(i)
        for _ in range(400):
            if i == 0:
                legal = s.legal_actions()
                if not legal:
                    return
                s.step(rng.choice(legal))
            else:
                c = s.clone()
                assert g.position(c.position()).hash == c.hash
                assert s.observation(0).shape == g.obs_shape

    run_threads(body)


def test_states_of_one_game_in_many_threads():
    """Each thread plays its own random games on states of one shared Game:
    the legal-action lists are per state, never crossed between threads."""
    g = hoyle.Game("checkers")

    def games(i):
        import random

        rng = random.Random(i)
        for _ in range(20):
            s = g.new_state()
            while not s.is_terminal:
                legal = s.legal_actions()
                again = g.position(s.position()).legal_actions()
                assert legal == again
                s.apply(rng.choice(legal))

    run_threads(games)


def test_wrong_types_are_type_errors():
    g = hoyle.Game("checkers")
    for bad in (None, 3, ["checkers"]):
        with pytest.raises(TypeError):
            hoyle.Agent(bad, "random")
    with pytest.raises(TypeError):
        hoyle.Agent(g, None)
    with pytest.raises(TypeError):
        hoyle.Agent(g, "random").act("not a state")
    with pytest.raises(TypeError):
        g.new_state().apply(1.5)
    with pytest.raises(ValueError):  # still hoyle.Error too, as before
        hoyle.Agent(None, "random")
    with pytest.raises(TypeError):
        hoyle.play(None, [])
