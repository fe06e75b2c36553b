#!/usr/bin/env bash
# Every subcommand's options go through the shared parser (apps/cli_opts.h), each option a
# settings row (core/spec.h): an unknown option, a missing value, a bad number, an
# out-of-range number and a wrong positional count each exit 2 with exactly one line on
# stderr, "hoyle CMD: ..." worded as a spec's or a config's errors are (the same checker and
# "did you mean"); --help lists the options from the rows, with their ranges and defaults;
# a row's default is what the command runs with; --help-markdown prints the rows as a docs
# table. Then the JSON writer escapes user text: an agent spec whose path
# holds a quote and a backslash comes back intact from `match --json` (the
# agent is a fake gnubg that fails every move, so the match also shows the
# forfeit rule: the failing agent loses each game, the match completes).
# usage: options.sh HOYLE_BINARY DATA_DIR
set -u
hoyle=$1
. "$(dirname "$0")/lib.sh"
err=$dir/err

# bad CMD "EXPECTED MESSAGE" ARGS...: exit 2, one line, exactly "hoyle CMD: EXPECTED"
# (a message ending in "..." is matched as a prefix)
bad() {
  local cmd=$1 want=$2; shift 2
  "$hoyle" "$cmd" "$@" >/dev/null 2>"$err"; local rc=$?
  local got; got=$(cat "$err")
  if [ "$rc" != 2 ]; then
    echo "FAIL: hoyle $cmd $*: exit $rc, expected 2 ($got)"; fails=$((fails+1)); return
  fi
  local head="hoyle $cmd: $want"
  case "$want" in *...) head="hoyle $cmd: ${want%...}"; got=${got:0:${#head}} ;; esac
  if [ "$(wc -l <"$err")" != 1 ] || [ "$got" != "$head" ]; then
    echo "FAIL: hoyle $cmd $*:"; echo "  got:  $got"; echo "  want: hoyle $cmd: $want"
    fails=$((fails+1)); return
  fi
  pass=$((pass+1))
}

# unknown option, for every command
for cmd in games show perft random bench play match analyze tournament study elo report sprt selfplay train serve; do
  bad "$cmd" "unknown option '--frobnicate' (known: --..." --frobnicate
  "$hoyle" "$cmd" --help >"$dir/help" 2>&1 || { echo "FAIL: $cmd --help"; fails=$((fails+1)); }
  grep -q "^Options:" "$dir/help" || { echo "FAIL: $cmd --help has no option list"; fails=$((fails+1)); }
done

# missing values
bad show "--position needs a value" gobang --position
bad perft "--position needs a value" checkers 3 --position
bad random "--seed needs a value" gobang --seed
bad bench "--games needs a value" --games
bad play "--p2 needs a value" gobang --p2
bad match "--games needs a value" gobang random random --games
bad analyze "--agent needs a value" gobang --agent
bad tournament "--set needs a value" x.yaml --set
bad elo "--anchor needs a value" x.h5 --anchor
bad report "--pdn needs a value" x.h5 --pdn
bad sprt "--openings needs a value" gobang random random --openings
bad selfplay "--model needs a value" gobang --model
bad train "--set needs a value" x.yaml --set

# bad numbers
bad perft "DEPTH: '3x' is not an integer" checkers 3x
bad perft "DEPTH: -3 is less than 0" checkers -3
bad random "--games: 'abc' is not an integer" gobang --games abc
bad play "--seed: 'x' is not an integer" gobang --seed x
bad match "--seed: -1 is less than 0" gobang random random --seed -1
bad analyze "--seed: '1.5' is not an integer" gobang --seed 1.5
bad elo "--bootstrap: 'many' is not an integer" x.h5 --bootstrap many
bad report "--seed: '' is not an integer" x.h5 --seed ''
bad sprt "--elo0: 'abc' is not a number" gobang random random --elo0 abc
bad selfplay "--cache: '2k' is not an integer" gobang --cache 2k
bad solve "--heuristic: 'manhattan' is not one of md, lc, pdb" fifteen --heuristic manhattan

# out of range
bad random "--games: 0 is less than 1" gobang --games 0
bad random "unknown option '--gmaes' (did you mean '--games'? known: --games, --seed, --position, --json)" gobang --gmaes 3
bad match "--games: 0 is out of range [1, 1000000]" gobang random random --games 0
bad sprt "--max-pairs: 0 is out of range [1, 10000000]" gobang random random --max-pairs 0
bad sprt "--max-moves: 2000000 is out of range [0, 1000000]" gobang random random --max-moves 2000000
bad elo "--bootstrap: 100001 is out of range [0, 100000]" x.h5 --bootstrap 100001

# positional counts
bad games "unexpected argument 'extra'" extra
bad show "expected GAME (try --help)"
bad perft "expected GAME and DEPTH (try --help)" checkers
bad random "expected GAME (try --help)"
bad bench "unexpected argument 'gobang'" gobang
bad play "unexpected argument 'checkers'" gobang checkers
bad match "expected GAME A B (try --help)" gobang random
bad analyze "unexpected argument 'x'" gobang x
bad tournament "expected CONFIG.yaml (try --help)"
bad elo "expected FILE.h5 (try --help)"
bad report "expected FILE.h5 (try --help)" --pool
bad sprt "unexpected argument 'x'" gobang random random x
bad selfplay "unexpected argument 'x'" gobang "games=1" x
bad train "unexpected argument 'b.yaml'" a.yaml b.yaml

# --help from the rows (range, units, default); the row's default is what the command runs
# with; --help-markdown is the rows as the docs' table
"$hoyle" match --help >"$dir/help"
check "match --help: --games with its range and default" \
  'grep -qF -- "--games N          games to play [1..1000000] (default 10)" "$dir/help"'
"$hoyle" serve --help >"$dir/help"
check "serve --help: units" 'grep -qF -- "longest agent search [1..3600000] ms (default 10000)" "$dir/help"'
check "match runs its row's default of 10 games" \
  '"$hoyle" match gobang random random --json 2>/dev/null | grep -q "\"games\":10,"'
check "sprt's --elo1 row (10) replaces the library's 5" \
  '"$hoyle" sprt gobang greedy random --max-pairs 1 --json 2>/dev/null | grep -q "\"elo1\":10"'
"$hoyle" serve --help-markdown >"$dir/md"
check "serve --help-markdown" 'grep -qF "| \`--think-ms\` | int 1–3600000 ms | \`1000\` |" "$dir/md"'

# JSON escaping and the forfeit rule: a fake gnubg under a path with '"' and '\'
mkdir -p "$dir/q\"d"
fake="$dir/q\"d/gnu\\bg"
printf '#!/bin/sh\necho "ready gnubg-bridge 1"\nwhile read line; do echo "err fake gnubg"; done\n' >"$fake"
chmod +x "$fake"
out=$("$hoyle" match backgammon "gnubg(path=$fake)" random --games 2 --json 2>"$err"); rc=$?
if [ "$rc" != 0 ]; then
  echo "FAIL: match with a failing agent: exit $rc ($(cat "$err"))"; fails=$((fails+1))
elif ! FAKE="$fake" python3 -c '
import json, os, sys
d = json.loads(sys.stdin.read())
assert d["a"] == "gnubg(plies=0,path=%s)" % os.environ["FAKE"], d["a"]
assert (d["wins"], d["draws"], d["losses"]) == (0, 0, 2), d' <<<"$out"; then
  echo "FAIL: match --json did not round-trip the path, or the forfeits: $out"; fails=$((fails+1))
elif [ "$(grep -c 'forfeit: ' "$err")" != 2 ]; then
  echo "FAIL: the forfeits are not on stderr: $(cat "$err")"; fails=$((fails+1))
else
  pass=$((pass+1))
fi

finish
