#!/usr/bin/env bash
# CLI test of `hoyle sprt` when every pair scores (nearly) the same, the
# case the regularised LLR of eval/sprt.h is for:
#   1. a much stronger agent (greedy against random on Go-Bang: every pair
#      won) is accepted, H1, after about 104 pairs at elo1 = 10, not left
#      undecided at --max-pairs;
#   2. checkers greedy against random (20 won pairs, then a split one): the
#      LLR grows in small steps to H1, no jump past the bound;
#   3. a deterministic mirror match (every pair split 1-1, zero variance)
#      goes to H0, never to H1.
# Usage: sprt.sh HOYLE_BINARY
set -u
H="$1"
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || fail "python3 is required"

# 1. every pair won
"$H" sprt gobang greedy random --json >"$dir/g.json" 2>/dev/null || fail "gobang greedy random"
python3 - "$dir/g.json" <<'EOF' || fail "gobang greedy random: $(cat "$dir/g.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["accepted"] == "H1", d
assert 90 <= d["pairs"] <= 120, d
assert d["penta"] == [0, 0, 0, 0, d["pairs"]], d
assert d["upper"] <= d["llr"] < d["upper"] + 0.1, d
EOF

# 2. nearly every pair won: the LLR rises in small steps. Pairs are seeded one
#    by one, so the run stopped at --max-pairs k is the first k pairs of the
#    full run, and its LLR is the full run's LLR after pair k.
"$H" sprt checkers greedy random --json >"$dir/c.json" 2>/dev/null || fail "checkers greedy random"
pairs=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["pairs"])' "$dir/c.json")
for k in $(seq 1 "$pairs"); do
  "$H" sprt checkers greedy random --max-pairs "$k" --json 2>/dev/null >>"$dir/c.llr" ||
    fail "checkers greedy random --max-pairs $k"
done
python3 - "$dir/c.json" "$dir/c.llr" <<'EOF' || fail "checkers greedy random: $(cat "$dir/c.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["accepted"] == "H1" and d["pairs"] < 200, d
llr = [json.loads(line)["llr"] for line in open(sys.argv[2])]
assert len(llr) == d["pairs"], (len(llr), d["pairs"])
assert abs(llr[-1] - d["llr"]) < 1e-9, (llr[-1], d["llr"])
steps = [b - a for a, b in zip([0.0] + llr, llr)]
assert max(abs(s) for s in steps) < 0.1, max(steps)
assert all(x < d["upper"] for x in llr[:-1]), "crossed the bound before the end"
EOF

# 3. a deterministic mirror match: every pair 1-1
"$H" sprt gobang "alphabeta(depth=1)" "alphabeta(depth=1)" --openings none --max-pairs 300 --json \
  >"$dir/m.json" 2>/dev/null || fail "mirror match"
python3 - "$dir/m.json" <<'EOF' || fail "mirror match: $(cat "$dir/m.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["penta"] == [0, 0, d["pairs"], 0, 0], d
assert d["accepted"] == "H0" and d["pairs"] < 300, d
EOF
# 4. a malformed random:K is refused (it used to read as random:0)
for bad in random:abc random:-1 random:61 random:; do
  err=$("$H" sprt gobang greedy random --openings "$bad" --max-pairs 1 2>&1 >/dev/null)
  [ $? -eq 2 ] || fail "--openings $bad should exit 2"
  [ "$(echo "$err" | wc -l)" = 1 ] && echo "$err" | grep -q 'K in random:K' || fail "--openings $bad: $err"
done
# the verdict names the Elo value, not the option's name; the progress counts to the
# expected decision (about 104 pairs here), not to --max-pairs, and ends at N/N, ETA 0:00
# (issue 36, item 9)
out=$("$H" sprt gobang greedy random --max-pairs 1000 2>"$dir/sprt_eta.err") || fail "sprt greedy/random"
echo "$out" | grep -q "by about 10 Elo or more" ||
  fail "verdict without the value: $out"
echo "$out" | grep -q "elo1" && fail "verdict names the parameter: $out"
first=$(grep -m1 '^\[sprt\]' "$dir/sprt_eta.err")
echo "$first" | grep -Eq '^\[sprt\] 1/[0-9]{1,3} pairs' || fail "first ETA counts to max pairs: $first"
last=$(grep '^\[sprt\]' "$dir/sprt_eta.err" | tail -1)
echo "$last" | grep -Eq '^\[sprt\] ([0-9]+)/\1 pairs, .*ETA 0:00' || fail "final line not N/N, ETA 0:00: $last"
echo "sprt.sh: OK"
