#!/bin/sh
# uci_fake_engine.sh MODE — a misbehaving UCI engine for tests/cli/uci.sh (in data/:
# every tests/cli/*.sh is a test of its own).
# It completes the handshake, then, at `go`: hang (never answers), die (exits),
# illegal (answers the move "zz99"), garbage (answers "bestmove" alone).
# MODE silent never answers `uci` at all; MODE env writes the OMP_NUM_THREADS it was given
# (what hoyle's own environment holds: apps/main.c) to $FAKE_ENV_FILE, then dies at `go`.
mode=$1
[ "$mode" = env ] && echo "OMP_NUM_THREADS=${OMP_NUM_THREADS-unset}" >"$FAKE_ENV_FILE"
while read -r line; do
    case "$line" in
    uci) [ "$mode" = silent ] || { echo "id name fake-$mode"; echo uciok; } ;;
    isready) echo readyok ;;
    go*)
        case "$mode" in
        hang) # exec: the kill reaches the sleeper (same pid, kept in $FAKE_PID_FILE)
            [ -n "${FAKE_PID_FILE:-}" ] && echo $$ >>"$FAKE_PID_FILE"
            exec sleep 3600 ;;
        die | env) exit 3 ;;
        illegal) echo "bestmove zz99" ;;
        garbage) echo "bestmove" ;;
        esac
        ;;
    quit) exit 0 ;;
    esac
done
