#!/usr/bin/env bash
# scripts/strength (docs/strength.md): every two-player game of the registry (the puzzles solitaire,
# fifteen and thirtyfour are one-player games; Double Solitaire is left out of the table) has a config in
# configs/strength/, each anchored on the same agent; a tiny run of one config (Devil among the
# Tailors: three agents, no net; one opening a pairing) writes the page, with that game's table
# and the others marked "not run", and an SVG that parses; a rerun plays nothing more (resume);
# bad options exit non-zero with one line. Usage: strength.sh HOYLE_BINARY DATA_DIR
set -euo pipefail
hoyle=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$(dirname "$0")/lib.sh"

# 1. the configs: one per two-player game, the same anchor everywhere
"$hoyle" games --json | python3 -c '
import json, sys, glob, re
root = sys.argv[1]
games = [g["name"] for g in json.load(sys.stdin)["games"]]
texts = {p: open(p).read() for p in glob.glob(root + "/configs/strength/*.yaml")}
anchors = {re.search(r"^anchor: *\"(.*)\"", t, re.M).group(1) for t in texts.values()}
if len(anchors) != 1:
    sys.exit("strength.sh: anchors differ: %s" % sorted(anchors))
covered = {re.search(r"^games: *\[\"?([a-z]+)", t, re.M).group(1) for t in texts.values()}
for g in games:
    if g not in ("solitaire", "fifteen", "thirtyfour") and g not in covered:
        sys.exit("strength.sh: no config in configs/strength/ for %s" % g)
' "$root"

# 1b. how many openings and repeats the script asks for: backgammon's `# strength: at most 15
# openings` line makes 50 into 15 openings played 4 times; English checkers' 49-ballot book caps
# the planned games at 49 openings; a random pool is asked for K
python3 - "$root" <<'PY'
import sys
from importlib.machinery import SourceFileLoader
root = sys.argv[1]
st = SourceFileLoader("strength", root + "/scripts/strength").load_module()
cfg = lambda n: st.read_config(root + "/configs/strength/%s.yaml" % n)
assert st.openings_and_repeats(cfg("backgammon"), 50) == (15, 4), st.openings_and_repeats(cfg("backgammon"), 50)
assert st.openings_and_repeats(cfg("backgammon"), 8) == (8, 1)
assert st.planned_games(cfg("backgammon"), 50) == 10 * 15 * 2 * 4
assert st.planned_games(cfg("checkers"), 50) == 6 * 49 * 2
assert st.openings_and_repeats(cfg("chess"), 50) == (50, 1)
PY

# 2. bad options: one line, non-zero
for bad in "--openings 0" "--only nosuch" "--hoyle /nonexistent/hoyle"; do
  set +e
  # shellcheck disable=SC2086
  python3 "$root/scripts/strength" --hoyle "$hoyle" $bad --runs "$dir/r" --out "$dir/x.md" \
    --svg "$dir/x.svg" >/dev/null 2>"$dir/err"
  rc=$?
  set -e
  [ "$rc" -ne 0 ] && [ "$(wc -l <"$dir/err")" -eq 1 ] || fail "$bad: rc $rc: $(cat "$dir/err")"
done

# 3. one tiny tournament, the page and the plot
run() {
  python3 "$root/scripts/strength" --hoyle "$hoyle" --only checkers_devil --openings 1 --runs "$dir/r" \
    --out "$dir/s.md" --svg "$dir/s.svg" --note "a test" 2>"$dir/log" ||
    fail "the run failed: $(tail -3 "$dir/log")"
}
run
grep -q '^| `checkers(variant=devil)` | 6 | ' "$dir/s.md" || fail "no devil row: $(grep devil "$dir/s.md")"
grep -q '^| `chess` | 0 | not run' "$dir/s.md" || fail "chess is not marked not run"
grep -q '^- note: a test$' "$dir/s.md" || fail "the note is missing"
grep -q '| `mcts(time_ms=50)` | mcts | 0 | \[0, 0\] | 4 |' "$dir/s.md" || fail "the anchor's row: $(grep 'mcts(time' "$dir/s.md")"
python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$dir/s.svg" || fail "the SVG does not parse"
# 4. a rerun resumes: nothing more is played
run
grep -q '^| `checkers(variant=devil)` | 6 | ' "$dir/s.md" || fail "the rerun changed the game count"
echo "strength.sh: ok"
