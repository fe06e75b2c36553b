#!/usr/bin/env bash
# CLI test of `hoyle play`: usage errors exit 2, agent games finish, a
# scripted human game through stdin (help, moves, an illegal move, quit),
# and end of input stops cleanly.
set -u
H="$1"
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp)

"$H" play --help >/dev/null || fail "--help"
"$H" play >/dev/null 2>&1; [ $? -eq 2 ] || fail "no game should exit 2"
"$H" play nosuchgame >/dev/null 2>&1; [ $? -eq 2 ] || fail "unknown game should exit 2"
"$H" play checkers --p1 'mcts(bogus=1)' >/dev/null 2>"$tmp"; [ $? -eq 2 ] || fail "bad agent key should exit 2"
grep -q bogus "$tmp" || fail "error should name the key"
[ "$(wc -l < "$tmp")" -eq 1 ] || fail "one-line error"
rm -f "$tmp"
"$H" play checkers --bogus >/dev/null 2>&1; [ $? -eq 2 ] || fail "unknown option should exit 2"

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

# end of input in the middle of a game
printf '11-15\n' | "$H" play checkers --p2 random >/dev/null 2>&1
[ $? -eq 1 ] || fail "end of input should exit 1"
echo "play: ok"
