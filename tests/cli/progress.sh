#!/usr/bin/env bash
# Progress lines of long runs (core/progress.h) and the search agents' default depth:
#   1. stderr not a terminal: selfplay, match, sprt, bench, tournament and train write
#      plain "DONE/TOTAL UNIT, RATE UNIT/s, ETA M:SS" lines, throttled (a fast run of many
#      games shows its first and final line only), no "\r"; --quiet silences them;
#   2. train prints its header and a line before net 0 plays the baseline;
#   3. on a terminal (python3 pty) the line is rewritten in place ("\r" ... ESC[K);
#   4. expectimax/alphabeta with depth=0 and no time limit search 2 whole moves in games
#      with chance nodes (backgammon) and 4 otherwise; depth=N stays N.
# Usage: progress.sh HOYLE_BINARY DATA_DIR
set -euo pipefail
hoyle=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$(dirname "$0")/lib.sh"
eta='[0-9]+/[0-9]+ [a-z]+, [0-9.]+ [a-z]+/s, ETA [0-9]+:[0-9][0-9]'

# 1. plain lines
"$hoyle" selfplay 'gobang(board=5,men=0)' 'games=4,sims=8' 2>"$dir/sp.err" >/dev/null
grep -Eq "^\[selfplay\] 4/4 games, [0-9.]+ games/s, ETA 0:00, [0-9]+ samples$" "$dir/sp.err" ||
  fail "selfplay: no final progress line: $(cat "$dir/sp.err")"
if grep -q $'\r' "$dir/sp.err"; then fail "selfplay: carriage return in a non-terminal stream"; fi

# 200 fast games: the first line and the final one, nothing between (throttled)
"$hoyle" match gobang random random --games 200 2>"$dir/m.err" >/dev/null
[ "$(grep -c '^\[match\]' "$dir/m.err")" -eq 2 ] || fail "match: not throttled: $(head -5 "$dir/m.err")"
grep -Eq "^\[match\] 200/200 games, [0-9.]+ games/s, ETA 0:00, .*W/D/L" "$dir/m.err" ||
  fail "match: no final line: $(cat "$dir/m.err")"

"$hoyle" sprt gobang greedy random --max-pairs 3 2>"$dir/s.err" >/dev/null
grep -Eq "^\[sprt\] 3/3 pairs, .*ETA 0:00, .*LLR" "$dir/s.err" || fail "sprt: $(cat "$dir/s.err")"

"$hoyle" bench --games 'gobang(board=5,men=0)' 2>"$dir/b.err" >"$dir/b.out"
grep -Eq "^\[bench\] 1/1 games, .*ETA 0:00, last gobang" "$dir/b.err" || fail "bench: $(cat "$dir/b.err")"
grep -q "nodes$" "$dir/b.out" || fail "bench: stdout lost its total"
if grep -q '^\[bench\]' "$dir/b.out"; then fail "bench: progress on stdout"; fi

cat >"$dir/t.yaml" <<EOF
name: tinyprog
games: ["gobang(board=5,men=0)"]
agents: [random, greedy]
schedule: round-robin
openings: {gobang: "random:1"}
openings_per_pairing: 2
games_per_opening: 1
workers: 1
seed: 3
output: $dir/t.h5
EOF
"$hoyle" tournament "$dir/t.yaml" 2>"$dir/t.err" >/dev/null
grep -Eq "^\[tinyprog\] 4/4 games, [0-9.]+ games/s, ETA 0:00, leader " "$dir/t.err" ||
  fail "tournament: $(cat "$dir/t.err")"
"$hoyle" tournament "$dir/t.yaml" --set "output=$dir/q.h5" --quiet 2>"$dir/tq.err" >/dev/null
if grep -Eq "$eta" "$dir/tq.err"; then fail "tournament --quiet: $(cat "$dir/tq.err")"; fi

# 2. train (libtorch builds): header and a first line before the baseline games, then lines
set +e
"$hoyle" train "$here/../../configs/train/tiny.yaml" --set "output=$dir/run" \
  --set train.generations=1 2>"$dir/tr.err" >/dev/null
rc=$?
set -e
if grep -q "no libtorch" "$dir/tr.err"; then
  echo "progress.sh: no libtorch, train part skipped"
else
  [ "$rc" -eq 0 ] || fail "train: exit $rc: $(cat "$dir/tr.err")"
  head -1 "$dir/tr.err" | grep -q "^train .*new run, generation 0$" || fail "train: header not first"
  sed -n 2p "$dir/tr.err" | grep -q "^gen 0 | net 0 plays the baseline mcts(sims=32): 4 games$" ||
    fail "train: no line before the baseline games: $(cat "$dir/tr.err")"
  grep -q "^gen 0 | elo +0 (net 0) | vs baseline" "$dir/tr.err" || fail "train: no gen 0 line"
  grep -q "^gen 1 | .*elapsed, ETA" "$dir/tr.err" || fail "train: no gen 1 line"
  "$hoyle" train "$here/../../configs/train/tiny.yaml" --set "output=$dir/runq" \
    --set train.generations=1 --quiet 2>"$dir/trq.err" >/dev/null
  [ ! -s "$dir/trq.err" ] || fail "train --quiet wrote: $(cat "$dir/trq.err")"
fi

# 3. a terminal: one line rewritten in place
python3 - "$hoyle" <<'EOF' || fail "pty check"
import os, pty, subprocess, sys
hoyle = sys.argv[1]
master, slave = pty.openpty()
p = subprocess.Popen([hoyle, "match", "gobang", "greedy", "random", "--games", "40"],
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=slave)
os.close(slave)
out = b""
while True:
    try:
        chunk = os.read(master, 4096)
    except OSError:
        break
    if not chunk:
        break
    out += chunk
p.wait()
text = out.decode()
assert p.returncode == 0, p.returncode
assert "\r[match] 40/40 games" in text, repr(text[-300:])
assert "\x1b[K" in text, repr(text[-300:])
assert "[match] 1/40" in text, repr(text[:300])
# one line: no newline between the first and the final report
first = text.index("[match] 1/40")
assert "\n" not in text[first:text.index("[match] 40/40")], repr(text[:300])
assert text.rstrip("\r\n").count("\n") == 0, repr(text)
EOF

# 4. the default depth
# (the timeout only stops a regressed default, depth 4 on backgammon, taking minutes; the
# assertion is on the depth, not on the time)
depth() { timeout 120 "$hoyle" analyze "$@" --json | grep -o '"depth":[0-9]*' | cut -d: -f2; }
bg=(backgammon --position "4HPwATDgc/ABMA:X:31:t1")
[ "$(depth "${bg[@]}" --agent expectimax)" = 2 ] || fail "expectimax default depth on backgammon"
[ "$(depth "${bg[@]}" --agent alphabeta)" = 2 ] || fail "alphabeta default depth on backgammon"
[ "$(depth "${bg[@]}" --agent 'expectimax(depth=1)')" = 1 ] || fail "expectimax depth=1"
[ "$(depth checkers --agent alphabeta)" = 4 ] || fail "alphabeta default depth on checkers"
[ "$(depth checkers --agent 'alphabeta(depth=3)')" = 3 ] || fail "alphabeta depth=3"
"$hoyle" match --help >"$dir/help"
grep -q "0 = 4 (2 in games with dice)" "$dir/help" || fail "help line of depth"
echo "progress.sh: OK"
