"""test_conformance.py — tests/test_conformance.c's random-game invariants
again, through the Python API, on every registered variant: legal actions
well-formed (non-empty unless terminal), text round-trips (position, action,
whole move), clones independent, observations of the declared shape,
chance probabilities summing to 1, returns in [-1, 1] and zero-sum for two
players; and the C batch helper agrees with a Python loop."""
import math
import random

import numpy as np

import hoyle
from conftest import SLOW

GAMES = 6 if SLOW else 2


def check_state(g, s, rng):
    legal = s.legal_actions()
    p = s.current_player
    assert (p == hoyle.TERMINAL) == s.is_terminal
    if s.is_terminal:
        assert legal == []
        r = s.returns()
        assert len(r) == g.num_players and all(-1 <= x <= 1 for x in r)
        if g.num_players == 2:
            assert math.isclose(r[0] + r[1], 0.0, abs_tol=1e-9)
        return None
    assert legal, f"{g.spec}: no legal action in {s.position()}"
    assert legal == sorted(set(legal)) and 0 <= legal[0] and legal[-1] < g.num_actions
    assert s.returns() == [0.0] * g.num_players
    # position text round-trips, hash included
    t = g.position(s.position())
    assert t.position() == s.position() and t.hash == s.hash
    for player in range(g.num_players):
        obs = s.observation(player)
        assert obs.shape == g.obs_shape and obs.dtype == np.float32 and np.isfinite(obs).all()
    if s.is_chance:
        outcomes = s.chance_outcomes()
        assert sorted(a for a, _ in outcomes) == legal
        assert math.isclose(sum(q for _, q in outcomes), 1.0, rel_tol=1e-9)
        return rng.choices([a for a, _ in outcomes], [q for _, q in outcomes])[0]
    assert 0 <= p < g.num_players and s.chance_outcomes() == []
    # the seat at the board belongs to the player to move (partnership games)
    assert 0 <= s.current_seat < g.num_seats and s.current_seat % g.num_players == p
    a = rng.choice(legal)
    # action text round-trips in the state it is played in
    assert s.action_from_string(s.action_to_string(a)) == a
    # clone independence: playing on the clone leaves s as it was
    before, h = s.position(), s.hash
    c = s.clone()
    c.apply(a)
    assert s.position() == before and s.hash == h
    return a


def test_random_games(spec):
    g = hoyle.Game(spec)
    rng = random.Random(spec)
    for _ in range(GAMES):
        s = g.new_state()
        n = 0
        move, mover, start = [], None, None
        while True:
            a = check_state(g, s, rng)
            if a is None:
                break
            p = s.current_player
            if move and p != mover:  # a whole move ended: its text reads back to its actions
                assert start.move_from_string(start.move_to_string(move)) == move
                move = []
            if p >= 0:
                if not move:
                    mover, start = p, s.clone()
                move.append(a)
            s.apply(a)
            n += 1
            assert n <= g.max_game_length


def test_step_equals_apply_then_legal(spec):
    g = hoyle.Game(spec)
    s, t = g.new_state(), g.new_state()
    rng = random.Random(1)
    while not s.is_terminal:
        a = rng.choice(s.legal_actions())
        s.apply(a)
        assert t.step(a) == s.legal_actions()
    assert t.hash == s.hash


def test_random_playouts_in_c(spec):
    """The batch helper's games are game_random_games()' stream: a Python loop
    with hoyle's own sampler is not that stream, so compare invariants, and
    same seed -> same games."""
    g = hoyle.Game(spec)
    n = 50 if SLOW else 10
    r = g.random_playouts(n, seed=3)
    assert r.returns.shape == (n, g.num_players) and r.lengths.shape == (n,)
    assert (r.lengths >= 1).all() and (r.lengths <= g.max_game_length).all()
    assert (np.abs(r.returns) <= 1).all()
    if g.num_players == 2:
        assert np.allclose(r.returns.sum(axis=1), 0)
    again = g.random_playouts(n, seed=3)
    assert (again.lengths == r.lengths).all() and (again.returns == r.returns).all()
    other = g.random_playouts(n, seed=4)
    # (a puzzle's random games may all reach the move cap: then only the returns differ)
    assert (other.lengths != r.lengths).any() or (other.returns != r.returns).any()
