"""test_partners.py — Go-Bang for four in two partnerships through the Python
API: the game has two players (the partnerships) and four seats, the seat at
the board goes W1, B1, W2, B2, and a game between two agents (one per
partnership) ends with the partnerships' returns (zero-sum, one per partnership)."""
import hoyle


def test_seats_in_whist_order():
    g = hoyle.Game("gobang(players=4)")
    assert (g.num_players, g.num_seats) == (2, 4)
    assert hoyle.Game("gobang").num_seats == 2
    s = g.new_state()
    s.apply_move("d4")  # W1
    s.apply_move("e5")  # B1
    s.apply_move("c3")  # W2
    assert (s.current_seat, s.current_player) == (3, 1)  # B2, Black
    assert "X" in s.position() and s.position().endswith(" b2 10 11 0")
    t = 3
    while not s.is_terminal and t < 40:
        assert s.current_seat == t % 4 and s.current_player == t % 2
        s.apply(s.legal_actions()[-1])
        t += 1


def test_play_one_agent_per_partnership():
    g = hoyle.Game("gobang(players=4)")
    agents = [hoyle.Agent(g, "alphabeta(depth=2)"), hoyle.Agent(g, "random")]
    r = hoyle.play(g, agents, seed=3)
    assert r["returns"] in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])
