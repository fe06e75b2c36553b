#!/usr/bin/env bash
# UCI both ways (docs/uci.md):
#   1. a scripted session against `hoyle uci --agent alphabeta(...)`: uciok,
#      readyok, info lines (one per completed iteration), legal bestmoves, bad commands answered with an
#      `info string` and no change, isready and stop answered promptly during
#      `go infinite`, the time manager, quit;
#   2. hoyle's uci agent playing `hoyle uci` in a match, the games written as
#      PGN that pgn-extract reads without a complaint;
#   3. misbehaving engines (hang, die, illegal or empty bestmove, no
#      handshake) cost their games with a clear message, never a hang; an engine sees
#      OMP_NUM_THREADS=1 from hoyle's start-up unless the user set it;
#   4. Stockfish at UCI_Elo 1350 against alpha-beta (the issue's command),
#      its PGN through pgn-extract; and a tournament's PGN export.
# pgn-extract and stockfish checks skip when the program is missing, unless
# HOYLE_REQUIRE_PGN_EXTRACT=1 / HOYLE_REQUIRE_STOCKFISH=1.
# Usage: uci.sh HOYLE_BINARY DATA_DIR
set -u
H=$1
data=$2
. "$(dirname "$0")/lib.sh"
find_prog() { # the program's path, searching $PATH and /usr/games (Debian's place)
  command -v "$1" 2>/dev/null || { [ -x "/usr/games/$1" ] && echo "/usr/games/$1"; }
}
pgn_extract=$(find_prog pgn-extract)
stockfish=$(find_prog stockfish)
if [ -z "$pgn_extract" ] && [ "${HOYLE_REQUIRE_PGN_EXTRACT:-0}" = 1 ]; then
  fail "pgn-extract is required (HOYLE_REQUIRE_PGN_EXTRACT=1) but not installed"
fi
if [ -z "$stockfish" ] && [ "${HOYLE_REQUIRE_STOCKFISH:-0}" = 1 ]; then
  fail "stockfish is required (HOYLE_REQUIRE_STOCKFISH=1) but not installed"
fi
# pgn_ok FILE N: every game's movetext ends with its Result tag, and
# pgn-extract reads N games from FILE and logs no complaint
pgn_ok() {
  awk '/^\[Result "/ { want = $2; gsub(/[]"]/, "", want) }
       /^$/ { if (body && last != want) bad = 1; body = 0 }
       /^[^[]/ && NF { body = 1; last = $NF }
       END { if (body && last != want) bad = 1; exit bad }' "$1" ||
    fail "$1: a game's result token differs from its Result tag"
  [ -n "$pgn_extract" ] || { echo "uci.sh: pgn-extract missing: PGN check of $1 skipped" >&2; return 0; }
  "$pgn_extract" -s -l "$dir/pgn.log" -o "$dir/pgn.out" "$1" 2>"$dir/pgn.err" ||
    fail "pgn-extract failed on $1"
  [ ! -s "$dir/pgn.log" ] || fail "pgn-extract complains about $1: $(head -5 "$dir/pgn.log")"
  [ ! -s "$dir/pgn.err" ] || fail "pgn-extract stderr on $1: $(head -5 "$dir/pgn.err")"
  local n
  n=$(grep -c '^\[Event ' "$dir/pgn.out")
  [ "$n" = "$2" ] || fail "pgn-extract kept $n of the $2 games of $1"
}

# ---- 1. a scripted session ----
coproc UCI { exec "$H" uci --agent "alphabeta(depth=3,tt_mb=1)" 2>"$dir/uci.err"; }
pid=$UCI_PID
at_exit 'kill "$pid" 2>/dev/null'
send() { echo "$*" >&"${UCI[1]}"; }
# expect PATTERN [SECONDS]: read lines until one matches (the line is in $got)
expect() {
  local t=${2:-10} end=$((SECONDS + ${2:-10}))
  while [ $SECONDS -le $end ]; do
    IFS= read -r -t "$t" got <&"${UCI[0]}" || fail "no line matching '$1' (engine silent for ${t}s)"
    echo "$got" >>"$dir/session.log"
    [[ $got =~ $1 ]] && return 0
  done
  fail "no line matching '$1' within ${t}s"
}
legal_in() { # legal_in FEN MOVE: MOVE is one of hoyle's legal moves there
  "$H" show chess --position "$1" | grep '^moves:' | tr ' ,' '\n\n' | grep -qx "$2"
}
start="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
after_e4="rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"

send uci
expect '^id name hoyle'
expect '^option name Agent type string default alphabeta\(depth=3'
expect '^uciok$'
send isready
expect '^readyok$'
send ucinewgame
send position startpos moves e2e4
send go depth 2
# one line per completed iteration, then the search's summary, then bestmove
expect '^info depth 1 score (cp -?[0-9]+|mate -?[0-9]+) nodes [0-9]+ nps [0-9]+ time [0-9]+ pv [a-h][1-8]'
expect '^info depth 2 score (cp -?[0-9]+|mate -?[0-9]+) nodes [0-9]+ nps [0-9]+ time [0-9]+ pv [a-h][1-8]'
expect '^info depth 2 '
expect '^bestmove '
move=${got#bestmove }
legal_in "$after_e4" "$move" || fail "bestmove '$move' is not legal after 1. e4"

# bad commands: an info string each, the position unchanged
send foo bar
expect "^info string unknown command 'foo'"
send position startpos moves e2e5
expect "^info string position: move 1 'e2e5'"
send position fen not/a/fen w - - 0 1
expect '^info string position: '
send setoption name Hash value 16
expect "^info string setoption: unknown option 'Hash'"
send setoption name Agent value nosuchagent
expect "^info string setoption Agent: unknown agent 'nosuchagent'"
send go depth notanumber
expect '^info string go: depth needs a non-negative number'
expect '^bestmove '
legal_in "$after_e4" "${got#bestmove }" || fail "after bad commands the position changed: ${got#bestmove }"

# unknown tokens before a command are skipped (UCI)
send joho isready
expect '^readyok$'

# a FEN with moves, and a mate the search must report as mate
send position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1
send go depth 2
expect '^info depth .* score mate 1 '
expect '^bestmove a1a8$'

# go infinite: isready answered at once, no bestmove before stop, then promptly
send "setoption name Agent value alphabeta(tt_mb=1)"
send position startpos
send go infinite
sleep 0.3
send isready
t0=$(date +%s%N)
expect '^(readyok|bestmove.*)$' 2
[ "$got" = readyok ] || fail "go infinite: '$got' before stop"
[ $((($(date +%s%N) - t0) / 1000000)) -lt 1000 ] || fail "isready took over a second during a search"
sleep 0.2
t0=$(date +%s%N)
send stop
expect '^bestmove ' 3
ms=$((($(date +%s%N) - t0) / 1000000))
[ "$ms" -lt 1500 ] || fail "stop took ${ms} ms"
legal_in "$start" "${got#bestmove }" || fail "go infinite: illegal bestmove '${got#bestmove }'"

# the time manager: 1 s left, 10 ms increment: well under the clock
send position startpos moves e2e4 e7e5
t0=$(date +%s%N)
send go wtime 1000 btime 1000 winc 10 binc 10
expect '^bestmove ' 5
ms=$((($(date +%s%N) - t0) / 1000000))
[ "$ms" -lt 800 ] || fail "go wtime 1000: took ${ms} ms"

# MCTS behind the same engine: go nodes = simulations
send "setoption name Agent value mcts(sims=100)"
send position startpos
send go nodes 50
expect '^info depth [0-9]+ score cp -?[0-9]+ nodes 50 '
expect '^bestmove '
legal_in "$start" "${got#bestmove }" || fail "mcts: illegal bestmove"

send quit
for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$pid" 2>/dev/null && fail "quit: the engine is still running"
[ ! -s "$dir/uci.err" ] || fail "hoyle uci wrote to stderr: $(head -3 "$dir/uci.err")"

# ---- 2. hoyle's uci agent against hoyle uci, recorded as PGN ----
# The command is one spec value: quote the inner spec (its commas are inside
# parentheses, which the spec parser keeps with the value).
engine="uci(cmd='$H' uci --agent 'alphabeta(depth=1,tt_mb=1)',movetime=50)"
out=$("$H" match chess "$engine" "alphabeta(depth=1,tt_mb=1)" --games 2 --record "$dir/self.pgn" --json 2>"$dir/self.err") ||
  fail "uci agent vs hoyle uci: $(tail -3 "$dir/self.err")"
echo "$out" | grep -q '"games":2' || fail "uci agent vs hoyle uci: $out"
grep -q forfeit "$dir/self.err" && fail "uci agent vs hoyle uci: a forfeit: $(grep forfeit "$dir/self.err")"
[ "$(grep -c '^\[Event "hoyle match"\]' "$dir/self.pgn")" = 2 ] || fail "--record: not 2 games"
grep -q '^\[White "uci(cmd=' "$dir/self.pgn" || fail "--record: White tag"
grep -q '^1\. [NBRQK]\?[a-h]' "$dir/self.pgn" || fail "--record: no SAN movetext"
awk '!/^\[/ && length > 79 { exit 1 }' "$dir/self.pgn" || fail "--record: a movetext line longer than 79"
pgn_ok "$dir/self.pgn" 2

# ---- 3. misbehaving engines cost their games, with a message, no hang ----
fake="$data/uci_fake_engine.sh"
for mode in hang die illegal garbage silent; do
  t0=$SECONDS
  out=$(FAKE_PID_FILE="$dir/hang.pid" timeout 60 "$H" match chess "uci(cmd=$fake $mode,movetime=50,timeout_ms=1000)" random --games 2 --json 2>"$dir/$mode.err")
  rc=$?
  [ $rc -eq 0 ] || fail "$mode engine: match exit $rc: $(tail -2 "$dir/$mode.err")"
  [ $((SECONDS - t0)) -lt 20 ] || fail "$mode engine: the match took $((SECONDS - t0)) s"
  echo "$out" | grep -q '"losses":2' || fail "$mode engine: both games should be lost: $out"
  [ "$(grep -c 'forfeit: uci(' "$dir/$mode.err")" = 2 ] || fail "$mode engine: no forfeit lines"
  case $mode in
  hang) want='no bestmove within [0-9]+ ms, engine killed' ;;
  die) want='the process exited \(end of input\); restarted at the next move' ;;
  illegal) want="bestmove 'zz99' is illegal here" ;;
  garbage) want="'bestmove' without a move" ;;
  silent) want='handshake failed \(no reply within the timeout\)' ;;
  esac
  grep -Eq "$want" "$dir/$mode.err" || fail "$mode engine: message: $(grep forfeit "$dir/$mode.err" | head -1)"
done
for p in $(cat "$dir/hang.pid" 2>/dev/null); do
  kill -0 "$p" 2>/dev/null && fail "a hung engine (pid $p) was left running"
done
[ -s "$dir/hang.pid" ] || fail "the hang engine never reached go"
# hoyle's start-up (apps/main.c): one OpenMP (libtorch) thread unless the user's environment
# says otherwise; its children inherit what hoyle itself runs with
if "$H" selfplay checkers --model "$dir/none.pt" 2>&1 | grep -q "needs a build with libtorch"; then
  want_default=unset
else
  want_default=1
fi
for given in "" 3; do
  rm -f "$dir/env.txt"
  if [ -n "$given" ]; then
    OMP_NUM_THREADS=$given FAKE_ENV_FILE="$dir/env.txt" "$H" match chess "uci(cmd=$fake env)" random --games 1 >/dev/null 2>&1
  else
    (unset OMP_NUM_THREADS; FAKE_ENV_FILE="$dir/env.txt" "$H" match chess "uci(cmd=$fake env)" random --games 1 >/dev/null 2>&1)
  fi
  got=$(cat "$dir/env.txt" 2>/dev/null)
  [ "$got" = "OMP_NUM_THREADS=${given:-$want_default}" ] || fail "OMP_NUM_THREADS given '${given}': the engine saw '$got'"
done
err=$("$H" match chess "uci(cmd=/nonexistent/engine)" random 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] || fail "missing engine: exit $rc"
echo "$err" | grep -q "'/nonexistent/engine' is not an executable program" || fail "missing engine: $err"
err=$("$H" match backgammon "uci(cmd=$fake die)" random 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q "has chance; uci plays deterministic games only" || fail "uci on backgammon: $rc $err"

# ---- 4. Stockfish, and a tournament's PGN export ----
if [ -n "$stockfish" ]; then
  sf="uci(cmd=$stockfish,option.UCI_LimitStrength=true,option.UCI_Elo=1350,movetime=50)"
  out=$("$H" match chess "$sf" "alphabeta(time_ms=50,tt_mb=1)" --games 2 --record "$dir/sf.pgn" --json 2>"$dir/sf.err") ||
    fail "stockfish match: $(tail -3 "$dir/sf.err")"
  echo "$out" | grep -q '"games":2' || fail "stockfish match: $out"
  grep -q forfeit "$dir/sf.err" && fail "stockfish match: a forfeit: $(grep forfeit "$dir/sf.err")"
  grep -q 'option.UCI_Elo=1350' "$dir/sf.pgn" || fail "stockfish match: the player tag lacks the options"
  pgn_ok "$dir/sf.pgn" 2
else
  echo "uci.sh: stockfish missing: its match skipped" >&2
fi
cat >"$dir/t.yaml" <<EOF
name: uci-pgn
games: [chess]
agents: [random, "alphabeta(depth=3,tt_mb=1)"]
schedule: round-robin
openings: {chess: "random:2"}
openings_per_pairing: 2
games_per_opening: 1
max_moves: 300
workers: 1
seed: 3
output: $dir/t.h5
EOF
"$H" tournament "$dir/t.yaml" --quiet >/dev/null 2>"$dir/t.err" || fail "tournament: $(tail -3 "$dir/t.err")"
"$H" report "$dir/t.h5" --pgn "$dir/t.pgn" >/dev/null 2>"$dir/r.err" || fail "report --pgn: $(cat "$dir/r.err")"
grep -q "4 games written to $dir/t.pgn as PGN" "$dir/r.err" || fail "report --pgn: $(cat "$dir/r.err")"
grep -q '^\[Event "uci-pgn"\]' "$dir/t.pgn" || fail "report --pgn: Event tag"
grep -q '^\[Date "[0-9]\{4\}\.[0-9][0-9]\.[0-9][0-9]"\]' "$dir/t.pgn" || fail "report --pgn: Date tag"
grep -q '^\[Termination "adjudication"\]' "$dir/t.pgn" || grep -q '^\[Termination "normal"\]' "$dir/t.pgn" ||
  fail "report --pgn: Termination tag"
pgn_ok "$dir/t.pgn" 4
echo "uci: ok"
