"""overhead.py — random play per action: the C program against the Python API
(docs/python.md, "Overhead"). Not a test: a measurement, run by hand:

    PYTHONPATH=python python3 python/tests/overhead.py checkers gobang

Prints one Markdown table row per game: nanoseconds per action for `hoyle
random`, a Python loop of legal_actions() + apply(), a loop of step(), and
the C batch g.random_playouts(), each with its ratio to C."""
import json
import os
import random
import subprocess
import sys
import time

import hoyle

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.environ.get("HOYLE_CLI", os.path.join(ROOT, "build", "apps", "hoyle"))


def per_action_loop(g, games, use_step):
    rng, actions = random.Random(1), 0
    t0 = time.perf_counter()
    for _ in range(games):
        s = g.new_state()
        legal = s.legal_actions()
        while legal:
            a = rng.choice(legal)
            if use_step:
                legal = s.step(a)
            else:
                s.apply(a)
                legal = s.legal_actions()
            actions += 1
    return (time.perf_counter() - t0) / actions


def main(specs, c_games=20000, py_games=500):
    for spec in specs:
        g = hoyle.Game(spec)
        out = json.loads(subprocess.run([CLI, "random", spec, "--games", str(c_games), "--json"],
                                        check=True, capture_output=True, text=True).stdout)
        c = 1.0 / (out["games_per_second"] * out["length_mean"])
        loop = per_action_loop(g, py_games, False)
        step = per_action_loop(g, py_games, True)
        t0 = time.perf_counter()
        r = g.random_playouts(c_games, seed=1)
        batch = (time.perf_counter() - t0) / int(r.lengths.sum())
        cell = lambda t: f"{t * 1e9:.0f} ns ({t / c:.1f}×)"
        print(f"| {g.spec} | {c * 1e9:.0f} ns | {cell(loop)} | {cell(step)} | {cell(batch)} |")


if __name__ == "__main__":
    main(sys.argv[1:] or ["checkers", "gobang"])
