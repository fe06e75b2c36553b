#!/usr/bin/env bash
# `hoyle study` end to end:
#   1. a tiny study (small Go-Bang, mcts sims {5,10} and alphabeta depth {1,2}
#      against greedy) runs and writes study.csv / study.json / study.svg with
#      one row per point, each with its games, score, Elo and interval;
#   2. a rerun plays nothing and reports the same figures;
#   3. kill -9 mid-run, --report on the partial file, rerun: the resumed file
#      holds exactly the games of an uninterrupted run (none replayed, none
#      missing) and the same figures but the times;
#   4. the flags form runs a gauntlet, and a round robin without a reference;
#      the figures agree with `hoyle elo` on the same file, and the accuracy
#      columns with `hoyle accuracy` on a small checkers table;
#   5. bad input (unknown key, bad axis syntax, unknown agent, a gauntlet with
#      no reference, odd games, another study's file) exits 2 with a message
#      naming it, and writes nothing.
# Usage: study.sh HOYLE_BINARY DATA_DIR
set -euo pipefail
hoyle=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$(dirname "$0")/lib.sh"
python=""
for p in ${PYTHON:-} python3 /usr/bin/python3; do
  if "$p" -c 'import h5py, numpy' 2>/dev/null; then python=$p; break; fi
done
[ -n "$python" ] || fail "python3 with h5py and numpy is required"

cat >"$dir/tiny.yaml" <<EOF
name: tiny
game: "gobang(board=8,men=12)"
reference: greedy
agents:
  - "mcts(sims={5,10})"
  - "alphabeta(depth={1,2})"
games_per_pairing: 4
openings: random:2
max_moves: 60
workers: 2
seed: 3
output: $dir/tiny
EOF
"$hoyle" study "$dir/tiny.yaml" --quiet >"$dir/out.txt"
grep -q "^study tiny: gobang(board=8,men=12.*), 16 of 16 games, gauntlet" "$dir/out.txt" ||
  fail "no table header: $(head -1 "$dir/out.txt")"
for f in games.h5 study.csv study.json study.svg; do
  [ -s "$dir/tiny/$f" ] || fail "no $f"
done
"$python" - "$dir/tiny" <<'EOF'
import csv, json, math, sys
d = sys.argv[1]
rows = list(csv.DictReader(open(d + "/study.csv")))
names = [r["agent"] for r in rows]
assert names == ["greedy", "mcts(sims=5)", "mcts(sims=10)", "alphabeta(depth=1)",
                 "alphabeta(depth=2)"], names
assert [r["axis"] for r in rows] == ["", "sims", "sims", "depth", "depth"], rows
assert [r["budget"] for r in rows] == ["", "5", "10", "1", "2"], rows
assert rows[0]["elo"] == "0.0" and rows[0]["games"] == "16", rows[0]
for r in rows[1:]:
    assert r["games"] == "4", r
    assert int(r["wins"]) + int(r["draws"]) + int(r["losses"]) == 4, r
    s = (int(r["wins"]) + int(r["draws"]) / 2) / 4
    assert abs(float(r["score"]) - s) < 1e-4, r
    assert float(r["score_lo"]) <= s <= float(r["score_hi"]), r
    assert float(r["elo_lo"]) <= float(r["elo"]) <= float(r["elo_hi"]), r
    assert float(r["ms_per_move"]) >= 0 and int(r["moves"]) > 0, r
# the reference's tally is the mirror of the points'
assert int(rows[0]["wins"]) == sum(int(r["losses"]) for r in rows[1:]), rows
j = json.load(open(d + "/study.json"))
assert j["study"] == "tiny" and j["games"] == 16 and j["expected"] == 16, j
assert [p["agent"] for p in j["points"]] == names
assert j["points"][2]["budget"] == 10 and j["points"][2]["axis"] == "sims"
for p, r in zip(j["points"], rows):
    assert abs(p["elo"] - float(r["elo"])) < 0.06, (p, r)
svg = open(d + "/study.svg").read()
assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
for t in ("Elo against sims", "Elo against depth", "Elo against time per move",
          "mcts(sims={5,10})", "alphabeta(depth={1,2})"):
    assert t in svg, t
EOF
# the figures agree with `hoyle elo` on the same file (the same fit, its own tallies)
"$hoyle" elo "$dir/tiny/games.h5" --anchor greedy --json >"$dir/elo.json"
"$python" - "$dir/tiny/study.csv" "$dir/elo.json" <<'EOF'
import csv, json, sys
rows = {r["agent"]: r for r in csv.DictReader(open(sys.argv[1]))}
players = json.load(open(sys.argv[2]))["pools"][0]["ratings"]["players"]
assert len(players) == len(rows) == 5
for p in players:
    r = rows[p["name"]]
    assert int(r["games"]) == p["games"], (r, p)
    assert abs(float(r["score"]) - p["score"]) < 1e-4, (r, p)
    assert abs(float(r["draws"]) / p["games"] - p["draws"]) < 1e-4, (r, p)
    assert abs(float(r["elo"]) - p["elo"]) < 0.06 and abs(float(r["elo_lo"]) - p["lo"]) < 0.06, (r, p)
EOF
# --json prints the same object as study.json
"$hoyle" study "$dir/tiny.yaml" --json --quiet >"$dir/out.json"
cmp -s "$dir/out.json" "$dir/tiny/study.json" || fail "--json differs from study.json"

# ---- a rerun plays nothing ----
cp "$dir/tiny/study.csv" "$dir/first.csv"
"$hoyle" study "$dir/tiny.yaml" 2>"$dir/rerun.err" >/dev/null
grep -q "0 games played" "$dir/rerun.err" || fail "rerun of a finished study played games"
cmp -s "$dir/first.csv" "$dir/tiny/study.csv" || fail "rerun changed the figures"

# ---- kill -9 and resume: no game replayed, the same games as an uninterrupted run ----
big=(--set games_per_pairing=16 --set workers=1 --set "agents=['mcts(sims={20,40})']")
"$hoyle" study "$dir/tiny.yaml" "${big[@]}" --set "output=$dir/ref" --quiet >/dev/null
"$hoyle" study "$dir/tiny.yaml" "${big[@]}" --set "output=$dir/killed" --quiet >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 600); do  # until some games are in the journal
  if [ -s "$dir/killed/games.h5.journal" ] &&
     [ "$(stat -c %s "$dir/killed/games.h5.journal")" -gt 1500 ]; then break; fi
  sleep 0.02
done
kill -9 "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
# the partial file reports as it stands
"$hoyle" study "$dir/tiny.yaml" "${big[@]}" --set "output=$dir/killed" --report --json --quiet \
  >"$dir/partial.json"
partial=$("$python" -c "import json,sys; print(json.load(open(sys.argv[1]))['games'])" "$dir/partial.json")
[ "$partial" -lt 32 ] || echo "study.sh: note: the run finished before the kill" >&2
"$hoyle" study "$dir/tiny.yaml" "${big[@]}" --set "output=$dir/killed" 2>"$dir/resume.err" >/dev/null
played=$(sed -n 's/.*\] \([0-9]*\) games played.*(\([0-9]*\) were already in.*/\1 \2/p' "$dir/resume.err")
[ "$played" = "$((32 - partial)) $partial" ] ||
  fail "resume played/already '$played', expected $((32 - partial)) $partial"
"$python" "$here/../check_tournament_h5.py" --dump "$dir/ref/games.h5" >"$dir/ref.txt"
"$python" "$here/../check_tournament_h5.py" --dump "$dir/killed/games.h5" >"$dir/killed.txt"
[ "$(wc -l <"$dir/killed.txt")" = 32 ] || fail "resumed file holds $(wc -l <"$dir/killed.txt") games"
diff "$dir/ref.txt" "$dir/killed.txt" >/dev/null || fail "resumed games differ from an uninterrupted run"
# the same figures, times apart
"$python" - "$dir/ref/study.csv" "$dir/killed/study.csv" <<'EOF' || fail "resumed figures differ"
import csv, sys
a, b = ([{k: v for k, v in r.items() if k != "ms_per_move"} for r in csv.DictReader(open(p))]
        for p in sys.argv[1:])
assert a == b and len(a) == 3, (a, b)
EOF
echo "study.sh: kill -9 after $partial of 32 games, resumed: identical games and figures"

# ---- the flags form ----
"$hoyle" study "gobang(board=8,men=12)" --agent "mcts(sims={4,8})" --reference random \
  --games 2 --output "$dir/flags" --set max_moves=40 --quiet >/dev/null
[ "$(sed -n 3p "$dir/flags/study.csv" | cut -d, -f1)" = '"mcts(sims=4)"' ] || fail "flags form CSV"

# without a reference: a round robin over the points (every pair), mean 0
"$hoyle" study "gobang(board=8,men=12)" --agent "mcts(sims={4,8})" --agent greedy --games 2 \
  --output "$dir/rr" --set max_moves=40 --quiet >"$dir/rr.txt"
grep -q "6 of 6 games, round-robin; Elo: mean 0 over these 3 players" "$dir/rr.txt" || fail "round robin"
"$python" - "$dir/rr/study.csv" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["agent"] for r in rows] == ["mcts(sims=4)", "mcts(sims=8)", "greedy"], rows
assert all(r["games"] == "4" for r in rows), rows
assert abs(sum(float(r["elo"]) for r in rows)) < 0.5, rows
assert rows[2]["series"] == "greedy" and rows[2]["axis"] == "" and rows[2]["budget"] == "", rows
EOF

# ---- accuracy against endgame tables: the figures of `hoyle accuracy` per point ----
"$hoyle" tablebase checkers KMvK --out "$dir/tb" --quiet >/dev/null
cat >"$dir/acc.yaml" <<EOF
name: acc
game: checkers
reference: random
agents: ["mcts(sims={5,20})"]
games_per_pairing: 2
max_moves: 30
seed: 5
output: $dir/acc
accuracy: {tables: $dir/tb, positions: 30}
EOF
"$hoyle" study "$dir/acc.yaml" --quiet >/dev/null
"$hoyle" accuracy checkers --agent random --agent "mcts(sims=5)" --agent "mcts(sims=20)" \
  --tables "$dir/tb" --positions 30 --seed 5 --json >"$dir/acc.json" 2>/dev/null
"$python" - "$dir/acc/study.csv" "$dir/acc.json" <<'EOF'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
acc = json.load(open(sys.argv[2]))["agents"]
assert [r["agent"] for r in rows] == [a["agent"] for a in acc], (rows, acc)
for r, a in zip(rows, acc):
    for k, j in (("accuracy", "kept"), ("accuracy_lo", "kept_lo"), ("accuracy_hi", "kept_hi"),
                 ("best", "best"), ("blunders", "blunders")):
        assert abs(float(r[k]) - a[j]) < 1e-4, (k, r, a)
EOF

# ---- bad input: exit 2, one line naming it, nothing written ----
expect_usage() {  # expect_usage PATTERN CMD...
  local pattern=$1; shift
  set +e; "$@" >/dev/null 2>"$dir/err"; local rc=$?; set -e
  [ $rc = 2 ] || fail "exit $rc (expected 2) for: $* ($(cat "$dir/err"))"
  grep -q -- "$pattern" "$dir/err" || fail "message '$(cat "$dir/err")' lacks '$pattern'"
  [ "$(wc -l <"$dir/err")" = 1 ] || fail "message is not one line: $(cat "$dir/err")"
}
bad=(--set "output=$dir/bad")
sed 's/^max_moves: 60/max_moves: 60\ncolour: blue/' "$dir/tiny.yaml" >"$dir/bad1.yaml"
expect_usage "bad1.yaml:10: unknown key 'colour'" "$hoyle" study "$dir/bad1.yaml" "${bad[@]}"
expect_usage "key 'agents\[0\]': 'mcts(sims={5,,10})': empty value in the budget axis" \
  "$hoyle" study "$dir/tiny.yaml" "${bad[@]}" --set "agents=['mcts(sims={5,,10})']"
expect_usage "budget value 'x' is not a number" \
  "$hoyle" study "$dir/tiny.yaml" "${bad[@]}" --set "agents=['mcts(sims={5,x})']"
expect_usage "more than one budget axis" \
  "$hoyle" study "$dir/tiny.yaml" "${bad[@]}" --set "agents=['mcts(sims={5,10},c={1,2})']"
expect_usage "must be a key's value" \
  "$hoyle" study "$dir/tiny.yaml" "${bad[@]}" --set "agents=['mcts{5,10}']"
expect_usage "unbalanced braces" \
  "$hoyle" study "$dir/tiny.yaml" "${bad[@]}" --set "agents=['mcts(sims={5,10)']"
expect_usage "'5' is listed twice" \
  "$hoyle" study "$dir/tiny.yaml" "${bad[@]}" --set "agents=['mcts(sims={5,5})']"
expect_usage "key 'agents\[0\]'.*mctz" \
  "$hoyle" study "$dir/tiny.yaml" "${bad[@]}" --set "agents=['mctz(sims={5})']"
expect_usage "key 'agents\[0\]'.*simz" \
  "$hoyle" study "$dir/tiny.yaml" "${bad[@]}" --set "agents=['mcts(simz={5,10})']"
expect_usage "'mcts(sims=5)' is listed twice" \
  "$hoyle" study "$dir/tiny.yaml" "${bad[@]}" --set "agents=['mcts(sims={5,10})', 'mcts(sims=5)']"
expect_usage "a gauntlet needs a reference" "$hoyle" study "$dir/tiny.yaml" "${bad[@]}" --set reference=
expect_usage "key 'games_per_pairing': 5 is odd" \
  "$hoyle" study "$dir/tiny.yaml" "${bad[@]}" --set games_per_pairing=5
expect_usage "key 'openings'" "$hoyle" study "$dir/tiny.yaml" "${bad[@]}" --set openings=random:x
expect_usage "key 'schedule'" "$hoyle" study "$dir/tiny.yaml" "${bad[@]}" --set schedule=swiss
expect_usage "key 'game'" "$hoyle" study "$dir/tiny.yaml" "${bad[@]}" --set game=nosuchgame
expect_usage "no endgame tables" "$hoyle" study "$dir/tiny.yaml" "${bad[@]}" --set accuracy.tables=/tmp
expect_usage "need --agent" "$hoyle" study "gobang" --reference random
[ ! -e "$dir/bad" ] || fail "a bad study wrote something"
# another study's file is refused, naming the key that differs
expect_usage "games.h5: made by another config: key 'agents'" \
  "$hoyle" study "$dir/tiny.yaml" --quiet --set "agents=['mcts(sims={5,20})']"
cmp -s "$dir/first.csv" "$dir/tiny/study.csv" || fail "a refused study changed the outputs"
echo "study.sh: ok"
