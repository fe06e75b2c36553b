#!/usr/bin/env bash
# `hoyle selfplay` names the bad parameter: unknown keys (c_init is spelt c,
# as in the mcts and az agents), out-of-range values of the shared search
# keys and of self-play's own, each a one-line error with exit 2; the search
# keys take effect. Usage: selfplay_params.sh HOYLE_BINARY DATA_DIR
set -u
hoyle=$1
. "$(dirname "$0")/lib.sh"
err=$dir/err

# bad PARAMS NEEDLE...: exit 2, one stderr line holding every NEEDLE
bad() {
  local params=$1; shift
  "$hoyle" selfplay 'gobang(board=5,men=0)' "$params" >/dev/null 2>"$err"; local rc=$?
  if [ "$rc" != 2 ] || [ "$(wc -l <"$err")" != 1 ]; then
    echo "FAIL: '$params': exit $rc, expected 2 and one line:"; cat "$err"; fails=$((fails+1)); return
  fi
  for needle in "$@"; do
    grep -qF -- "$needle" "$err" || { echo "FAIL: '$params': no '$needle' in: $(cat "$err")"; fails=$((fails+1)); }
  done
}

bad 'c_init=1.25' "unknown parameter 'c_init'" " c, c_base, fpu"
bad 'batch=0' "batch: 0 is out of range"
bad 'fpu=3' "fpu: 3 is out of range"
bad 'noise_eps=2' "noise_eps"
bad 'gumbel_m=0' "gumbel_m"
bad 'parallel=0' "parallel: 0 is out of range"
bad 'sims=abc' "sims: 'abc' is not an integer"

out=$("$hoyle" selfplay 'gobang(board=5,men=0)' 'games=1,parallel=1,sims=8,c=2,fpu=0.5' --json 2>/dev/null) \
  || { echo "FAIL: selfplay with c=2 did not run"; fails=$((fails+1)); }
case "$out" in *"c=2,c_base=19652,fpu=0.5"*) ;; *) echo "FAIL: canonical params lack c=2: $out"; fails=$((fails+1));; esac

[ "$fails" = 0 ] || exit 1
echo "selfplay_params.sh: OK"
