#!/usr/bin/env bash
# `hoyle tournament`, `elo`, `report` and `sprt` end to end:
#   1. a tiny tournament (checkers ballots + random Go-Bang openings) runs,
#      prints an Elo table, and its file passes tests/check_tournament_h5.py
#      (h5py only: the documented schema and values);
#   2. kill -9 mid-run, rerun the same command: the resumed file holds exactly
#      the games of an uninterrupted run (same jobs, results and actions; none
#      missing, none twice), also with a different number of workers;
#   3. `hoyle elo` / `report` / PDN export read the file; a rerun of a finished
#      tournament plays nothing;
#   4. bad configs, and foreign or truncated .h5 files, exit 2 with a message
#      naming the file (and line/key) and write nothing;
#   5. `hoyle sprt` stops at a bound.
# Usage: tournament.sh HOYLE_BINARY DATA_DIR
set -euo pipefail
hoyle=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
python=""
for p in ${PYTHON:-} python3 /usr/bin/python3; do
  if "$p" -c 'import h5py, numpy' 2>/dev/null; then python=$p; break; fi
done
if [ -z "$python" ]; then
  echo "tournament.sh: python3 with h5py and numpy is required (Debian: python3-h5py python3-numpy)" >&2
  exit 1
fi
. "$(dirname "$0")/lib.sh"

cat >"$dir/tiny.yaml" <<EOF
name: tiny
games: [checkers, "gobang(board=8,men=12)"]
agents: [random, greedy, "alphabeta(depth=2)"]
schedule: round-robin
openings: {checkers: "book:$root/configs/books/checkers_two_move.txt", gobang: "random:2"}
openings_per_pairing: 2
games_per_opening: 1
max_moves: 150
workers: 2
seed: 7
output: $dir/tiny.h5
anchor: random
EOF
# 3 pairings x 2 openings x 2 colours x 2 games = 24 games
"$hoyle" tournament "$dir/tiny.yaml" --quiet >"$dir/out.txt"
grep -q "Rank Name" "$dir/out.txt" || fail "no Elo table"
grep -q "first player's score" "$dir/out.txt" || fail "no first-player line"
"$python" "$here/../check_tournament_h5.py" "$dir/tiny.h5" 24 random greedy "alphabeta(depth=2)"
# a finished tournament rerun plays nothing and leaves the games as they were
"$python" "$here/../check_tournament_h5.py" --dump "$dir/tiny.h5" >"$dir/before.txt"
"$hoyle" tournament "$dir/tiny.yaml" 2>"$dir/rerun.err" >/dev/null
grep -q "0 games played" "$dir/rerun.err" || fail "rerun of a finished tournament played games"
"$python" "$here/../check_tournament_h5.py" --dump "$dir/tiny.h5" >"$dir/after.txt"
cmp -s "$dir/before.txt" "$dir/after.txt" || fail "rerun changed the file"

# ---- kill -9 and resume ----
# Enough games that the kill lands mid-run: every ballot, both colours.
big=(--set openings_per_pairing=0 --set games_per_opening=1 --set "games=[checkers]"
     --set "openings={checkers: 'book:$root/configs/books/checkers_two_move.txt'}"
     --set "agents=[random, greedy, 'alphabeta(depth=3)']")
"$hoyle" tournament "$dir/tiny.yaml" "${big[@]}" --set "output=$dir/ref.h5" --set workers=1 --quiet >/dev/null
total=$("$python" -c "import h5py,sys; print(len(h5py.File(sys.argv[1])['games']))" "$dir/ref.h5")
[ "$total" = $((3 * 28 * 2)) ] || fail "reference run has $total games"
"$hoyle" tournament "$dir/tiny.yaml" "${big[@]}" --set "output=$dir/killed.h5" --quiet >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 400); do  # until some games are in the journal
  if [ -s "$dir/killed.h5.journal" ] && [ "$(stat -c %s "$dir/killed.h5.journal")" -gt 1500 ]; then break; fi
  sleep 0.02
done
kill -9 "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
# the killed file is readable as it stands (file + journal)
"$hoyle" elo "$dir/killed.h5" >/dev/null 2>&1 || true
partial=$("$hoyle" elo "$dir/killed.h5" --json 2>/dev/null | "$python" -c "import json,sys; print(json.load(sys.stdin)['records'])" || echo 0)
[ "$partial" -lt "$total" ] || echo "tournament.sh: note: the run finished before the kill ($partial games)" >&2
# moved (with its journal) before the resume: `output` is not part of the stored config
mkdir "$dir/moved"
mv "$dir/killed.h5" "$dir/moved/k.h5"
[ ! -e "$dir/killed.h5.journal" ] || mv "$dir/killed.h5.journal" "$dir/moved/k.h5.journal"
"$hoyle" tournament "$dir/tiny.yaml" "${big[@]}" --set "output=$dir/moved/k.h5" --quiet >/dev/null
"$python" "$here/../check_tournament_h5.py" "$dir/moved/k.h5" "$total" random greedy "alphabeta(depth=3)"
"$python" "$here/../check_tournament_h5.py" --dump "$dir/ref.h5" >"$dir/ref.txt"
"$python" "$here/../check_tournament_h5.py" --dump "$dir/moved/k.h5" >"$dir/killed.txt"
diff "$dir/ref.txt" "$dir/killed.txt" >/dev/null || fail "resumed run differs from the uninterrupted one (killed after $partial games)"
echo "tournament.sh: kill -9 after $partial of $total games, moved, resumed: identical games"

# ---- elo / report / pdn ----
"$hoyle" elo "$dir/tiny.h5" "$dir/ref.h5" --anchor random >"$dir/elo.txt"
grep -q "Rank Name" "$dir/elo.txt" || fail "hoyle elo printed no table"
"$hoyle" elo "$dir/tiny.h5" --json | "$python" -c "import json,sys; d=json.load(sys.stdin); assert d['records']==24 and len(d['pools'])==2"
"$hoyle" elo "$dir/tiny.h5" --csv | grep "^rank,name,elo" >/dev/null || fail "no CSV header"
"$hoyle" report "$dir/tiny.h5" --pdn "$dir/games.pdn" >"$dir/report.txt" 2>/dev/null
grep -q "Cross table" "$dir/report.txt" || fail "report has no cross table"
grep -q "Likelihood of superiority" "$dir/report.txt" || fail "report has no LOS matrix"
grep -q "First player's score by opening" "$dir/report.txt" || fail "report has no first-player table"
[ "$(grep -c '^\[Event ' "$dir/games.pdn")" = 12 ] || fail "PDN export should hold the 12 checkers games"
[ "$(grep -c '^\[Event "tiny"\]' "$dir/games.pdn")" = 12 ] ||
  fail "PDN Event should be the tournament's name: $(grep -m1 '^\[Event ' "$dir/games.pdn")"

# ---- bad input: exit 2, a message, nothing written ----
expect_usage() {  # expect_usage PATTERN CMD...
  local pattern=$1; shift
  set +e; "$@" >/dev/null 2>"$dir/err"; local rc=$?; set -e
  [ $rc = 2 ] || fail "exit $rc (expected 2) for: $* ($(cat "$dir/err"))"
  grep -q -- "$pattern" "$dir/err" || fail "message '$(cat "$dir/err")' lacks '$pattern'"
}
sed 's/^games_per_opening: 1/games_per_opening: 1\ncolour: blue/' "$dir/tiny.yaml" >"$dir/bad1.yaml"
sed -i "s|output: .*|output: $dir/bad.h5|" "$dir/bad1.yaml"
expect_usage "bad1.yaml:8: unknown key 'colour'" "$hoyle" tournament "$dir/bad1.yaml"
sed 's/^agents: .*/agents: [random, "mcts(simz=3)"]/' "$dir/tiny.yaml" | sed "s|output: .*|output: $dir/bad.h5|" >"$dir/bad2.yaml"
expect_usage "bad2.yaml:3: key 'agents\[1\]'" "$hoyle" tournament "$dir/bad2.yaml"
expect_usage "key 'openings.checkers'" "$hoyle" tournament "$dir/bad2.yaml" --set "agents=[random, greedy]" --set "openings.checkers=book:/nonexistent.txt"
expect_usage "key 'max_moves'" "$hoyle" tournament "$dir/bad2.yaml" --set "agents=[random, greedy]" --set max_moves=-3
expect_usage "key 'schedule'" "$hoyle" tournament "$dir/bad2.yaml" --set "agents=[random, greedy]" --set schedule=swiss
[ ! -e "$dir/bad.h5" ] && [ ! -e "$dir/bad.h5.journal" ] || fail "a bad config wrote a file"
# foreign and truncated files
printf 'not an hdf5 file\n' >"$dir/foreign.h5"
head -c 2000 "$dir/tiny.h5" >"$dir/trunc.h5"
cp "$dir/trunc.h5" "$dir/trunc.orig"
cp "$dir/foreign.h5" "$dir/foreign.orig"
expect_usage "foreign.h5" "$hoyle" elo "$dir/foreign.h5"
expect_usage "trunc.h5" "$hoyle" report "$dir/trunc.h5"
expect_usage "trunc.h5" "$hoyle" tournament "$dir/tiny.yaml" --set "output=$dir/trunc.h5"
expect_usage "foreign.h5" "$hoyle" tournament "$dir/tiny.yaml" --set "output=$dir/foreign.h5"
cmp -s "$dir/trunc.h5" "$dir/trunc.orig" && cmp -s "$dir/foreign.h5" "$dir/foreign.orig" || fail "a bad file was modified"
[ ! -e "$dir/trunc.h5.journal" ] && [ ! -e "$dir/foreign.h5.journal" ] || fail "a journal was written for a bad file"
# resuming with another config is refused, naming the keys with both values
expect_usage "tiny.h5: made by another config: key 'seed' was '7' (file), now '8'" \
  "$hoyle" tournament "$dir/tiny.yaml" --set seed=8
expect_usage "key 'max_moves' was '150' (file), now '0'; key 'anchor' was 'random' (file), now ''" \
  "$hoyle" tournament "$dir/tiny.yaml" --set max_moves=0 --set anchor=
# more openings per pairing extends a file: the grown file holds exactly the
# games of a run made with the larger count from the start (random openings
# and a book alike); fewer openings would drop stored games: refused
cp "$dir/tiny.h5" "$dir/grown.h5"
"$hoyle" tournament "$dir/tiny.yaml" --set "output=$dir/grown.h5" --set openings_per_pairing=3 --quiet >/dev/null
"$hoyle" tournament "$dir/tiny.yaml" --set "output=$dir/three.h5" --set openings_per_pairing=3 --quiet >/dev/null
"$python" "$here/../check_tournament_h5.py" "$dir/grown.h5" 36 random greedy "alphabeta(depth=2)"
"$python" "$here/../check_tournament_h5.py" --dump "$dir/grown.h5" >"$dir/grown.txt"
"$python" "$here/../check_tournament_h5.py" --dump "$dir/three.h5" >"$dir/three.txt"
diff "$dir/grown.txt" "$dir/three.txt" >/dev/null || fail "a file grown from 2 to 3 openings per pairing differs from a 3-opening run"
expect_usage "key 'openings_per_pairing' was '2' (file), now '1'" \
  "$hoyle" tournament "$dir/tiny.yaml" --set openings_per_pairing=1

# ---- sprt ----
"$hoyle" sprt gobang "alphabeta(depth=2)" greedy --elo0 0 --elo1 100 --max-pairs 300 --json 2>/dev/null >"$dir/sprt.json"
"$python" -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['accepted']=='H1' and d['pairs'] < 300, d" "$dir/sprt.json"
"$hoyle" sprt gobang random random --elo0 0 --elo1 100 --max-pairs 300 --json 2>/dev/null >"$dir/sprt0.json"
"$python" -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['accepted']=='H0', d" "$dir/sprt0.json"
# the config commands' arguments (cli_config_args, shared with train)
expect_usage "expected CONFIG.yaml" "$hoyle" tournament
expect_usage "unknown option '--nope'" "$hoyle" tournament "$dir/tiny.yaml" --nope
expect_usage "--set needs a value" "$hoyle" tournament "$dir/tiny.yaml" --set
expect_usage "unexpected argument" "$hoyle" tournament "$dir/tiny.yaml" extra.yaml
expect_usage "elo0" "$hoyle" sprt gobang greedy random --elo0 10 --elo1 0
echo "tournament.sh: OK"
