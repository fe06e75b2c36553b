#!/usr/bin/env bash
# CLI test of `hoyle play`: usage errors exit 2, agent games finish, a
# scripted human game through stdin (help, moves, an illegal move, quit),
# one message per bad line, a forced capture explained, undo, hint, resign,
# agents named as typed (--verbose: full specs), chess in SAN, and end of
# input stops cleanly.
set -u
H="$1"
. "$(dirname "$0")/lib.sh"
tmp=$dir/tmp

"$H" play --help >/dev/null || fail "--help"
"$H" play >/dev/null 2>&1; [ $? -eq 2 ] || fail "no game should exit 2"
"$H" play nosuchgame >/dev/null 2>&1; [ $? -eq 2 ] || fail "unknown game should exit 2"
"$H" play checkers --p1 'mcts(bogus=1)' >/dev/null 2>"$tmp"; [ $? -eq 2 ] || fail "bad agent key should exit 2"
grep -q bogus "$tmp" || fail "error should name the key"
[ "$(wc -l < "$tmp")" -eq 1 ] || fail "one-line error"
rm -f "$tmp"
"$H" play checkers --bogus >/dev/null 2>&1; [ $? -eq 2 ] || fail "unknown option should exit 2"
# ranges are printed as numbers people write: [0..1000000000], not 1e+09
"$H" play --help | grep -q "e+0" && fail "a range printed as 1e+09 in --help"
"$H" play --help | grep -q "\[0\.\.1000000000\]" || fail "no whole-number range in --help"
"$H" play checkers --p2 'mcts(sims=-1)' 2>&1 | grep -q "out of range \[0, 1000000000\]" || fail "range in the error not whole"

out=$("$H" play checkers --p1 random --p2 'mcts(sims=50)' --seed 3) || fail "agent game"
echo "$out" | grep -q "result after" || fail "no result line"
again=$("$H" play checkers --p1 random --p2 'mcts(sims=50)' --seed 3)
[ "$out" = "$again" ] || fail "same seed, different game"

out=$("$H" play gobang --p1 random --p2 greedy --quiet) || fail "gobang quiet game"
echo "$out" | grep -q "result after" || fail "no gobang result"

# a human: help, moves, an illegal move, a legal one, then quit
out=$(printf 'help\nmoves\n99-99\n11-15\nquit\n' | "$H" play checkers --p2 random 2>&1)
[ $? -eq 0 ] || fail "quit should exit 0"
echo "$out" | grep -q "legal moves:" || fail "moves not listed"
echo "$out" | grep -q "illegal move '99-99'" || fail "illegal move not reported"
echo "$out" | grep -q "plays 11-15" || fail "human move not played"
echo "$out" | grep -q "abandoned" || fail "quit not reported"

# one illegal move, one message (not one per fragment of the line)
n=$(printf '99-99\nquit\n' | "$H" play checkers --p2 random 2>&1 | grep -c "illegal move")
[ "$n" -eq 1 ] || fail "one illegal move should give one message, not $n"
long=$(head -c 1500 /dev/zero | tr '\0' x)
out=$(printf '%s\nquit\n' "$long" | "$H" play checkers --p2 random 2>&1)
[ "$(echo "$out" | grep -c "too long")" -eq 1 ] || fail "an overlong line should give one message"
echo "$out" | grep -q "illegal move" && fail "the rest of an overlong line was read as moves"

# a forced capture is explained, with the capture to make
out=$(printf '1-5\nquit\n' | "$H" play checkers --p2 random --position "B:W18,21,27,30:B1,2,3,14" 2>&1)
echo "$out" | grep -q "you must capture: 14x23x32" || fail "forced capture not explained: $out"

# undo takes back the human's move and the agent's reply; the start is drawn again
out=$(printf '11-15\nundo\nundo\nquit\n' | "$H" play checkers --p2 'mcts(sims=50)' 2>&1)
echo "$out" | grep -q "took back 2 moves" || fail "undo did not take back 2 moves"
echo "$out" | grep -q "nothing to take back" || fail "undo at the start should say nothing to take back"
[ "$(echo "$out" | grep -c "^B:W21-32:B1-12\|^B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12$")" -ge 2 ] ||
  fail "the start is not drawn again after undo"
# ... and the game goes on as if the move had not been played: same seed, same reply
a=$(printf '11-15\nquit\n' | "$H" play checkers --p2 'mcts(sims=50)' 2>&1 | grep "player 2 (")
b=$(printf '9-13\nundo\n11-15\nquit\n' | "$H" play checkers --p2 'mcts(sims=50)' 2>&1 | grep "player 2 (" | tail -1)
[ -n "$a" ] && [ "$a" = "$b" ] || fail "after undo the agent should answer as in a fresh game ('$a' vs '$b')"

# hint: the opponent agent's move for the human, named as typed; nothing is played
out=$(printf 'hint\nquit\n' | "$H" play checkers --p2 'mcts(sims=50)' 2>&1)
echo "$out" | grep -Eq "^move \(player 1\)> hint \(mcts\(sims=50\)\): [0-9]+-[0-9]+$" || fail "no hint: $out"
echo "$out" | grep -q "plays" && fail "a hint should not play a move"

# resign: the game ends, scored as a loss, exit 0
out=$(printf 'resign\n' | "$H" play checkers --p2 random 2>&1) || fail "resign should exit 0"
echo "$out" | grep -q "player 1 resigns" || fail "resign not reported"
echo "$out" | grep -q "player 1 -1 player 2 +1" || fail "resign not scored as a loss"

# agents are named as typed; --verbose names them by the full spec
out=$("$H" play checkers --p1 random --p2 'mcts(sims=50)' --quiet)
echo "$out" | grep -q "player 2 (mcts(sims=50)) plays" || fail "agent not named as typed"
echo "$out" | grep -q "select=" && fail "the full spec printed without --verbose"
"$H" play checkers --p1 random --p2 'mcts(sims=50)' --quiet --verbose | grep -q "player 2 (mcts(sims=50,.*select=" ||
  fail "--verbose should name agents by the full spec"

# chess: moves are shown in SAN, as a chess player types them
out=$(printf 'e4\nquit\n' | "$H" play chess --p2 'alphabeta(depth=1)' 2>&1)
echo "$out" | grep -q "player 1 (human) plays e4$" || fail "the human's move not echoed in SAN"
echo "$out" | grep -Eq "player 2 \(alphabeta\(depth=1\)\) plays [a-hNBRQKO][a-h1-8x=O+#-]*$" || fail "the reply not in SAN"
echo "$out" | grep -Eq "plays [a-h][1-8][a-h][1-8]" && fail "a move echoed in UCI"

# end of input in the middle of a game
printf '11-15\n' | "$H" play checkers --p2 random >/dev/null 2>&1
[ $? -eq 1 ] || fail "end of input should exit 1"
echo "play: ok"
