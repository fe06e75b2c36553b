#!/usr/bin/env bash
# Output scripts can trust, and errors in one line:
#  - `perft --divide --json` prints one JSON object, the divide inside it;
#  - `elo`: an unknown --anchor, a file given twice (by name or as a copy:
#    the same file_id) and --csv with --json are usage errors (exit 2, one
#    line naming the problem);
#  - `match` at a score of 1 (0): Elo and the open bound are null in JSON,
#    +inf in the table, the other bound the Wilson bound's Elo;
#  - unreadable inputs (a directory, a missing or non-HDF5 file) and
#    uncreatable outputs give one line with the system's reason, no HDF5
#    internals; --position without a value says so; `show` prints the
#    position string once; user input with a newline stays on one line.
# usage: trust.sh HOYLE_BINARY
set -u
H="$1"
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || fail "python3 is needed"
out="$dir/out" err="$dir/err"

# one_line_error WANT_RC WANT_TEXT ARGS...: exit WANT_RC, exactly one line on
# stderr that contains WANT_TEXT and nothing of HDF5's error stack
one_line_error() {
  local want_rc=$1 want=$2; shift 2
  "$H" "$@" >"$out" 2>"$err"; local rc=$?
  [ "$rc" = "$want_rc" ] || { miss "hoyle $*: exit $rc, want $want_rc ($(cat "$err"))"; return; }
  [ "$(wc -l <"$err")" = 1 ] || { miss "hoyle $*: not one line: $(cat "$err")"; return; }
  grep -qF -- "$want" "$err" || miss "hoyle $*: '$want' not in: $(cat "$err")"
  # HDF5's stack names its sources and functions (H5F.c line 620 in H5Fopen()); the
  # pattern must not match a temp folder's random name (/tmp/tmp.pPH5Vq...)
  ! grep -qE 'H5[A-Za-z_]*\.c|H5[A-Z][A-Za-z_]*\(|HDF5 error|errno =' "$err" ||
    miss "hoyle $*: HDF5 internals: $(cat "$err")"
}

# 1. perft: one JSON object, the divide in it, summing to the total
"$H" perft checkers 3 --divide --json >"$out" || miss "perft --divide --json"
python3 - "$out" <<'EOF' || miss "perft --divide --json is not one object with the divide: $(cat "$out")"
import json, sys
d = json.loads(open(sys.argv[1]).read())  # the whole output: one object
assert d["nodes"] == 302, d
assert len(d["divide"]) == 7 and sum(m["nodes"] for m in d["divide"]) == 302, d
assert d["divide"][0] == {"move": "9-13", "nodes": 48}, d["divide"][0]
EOF
"$H" perft checkers 3 --divide | grep -q '^9-13: 48$' || miss "perft --divide lines"

# 2. elo: a record file from a small tournament
cat >"$dir/t.yaml" <<EOF
name: t
games: [gobang, "gobang(board=6)"]  # two pools: each player listed once
agents: [random, greedy]
schedule: round-robin
openings_per_pairing: 1
output: $dir/f.h5
EOF
"$H" tournament "$dir/t.yaml" --quiet >/dev/null 2>&1 || miss "tournament"
cp "$dir/f.h5" "$dir/copy.h5"
"$H" elo "$dir/f.h5" --anchor random >/dev/null || miss "elo with a known anchor"
one_line_error 2 "anchor 'nobody' is not a player; players: random, greedy" elo "$dir/f.h5" --anchor nobody
[ "$(cat "$err")" = "hoyle elo: anchor 'nobody' is not a player; players: random, greedy" ] ||
  miss "each player once in the anchor error: $(cat "$err")"
one_line_error 2 "is the same record file as" elo "$dir/f.h5" "$dir/f.h5"
one_line_error 2 "'$dir/copy.h5' is the same record file as '$dir/f.h5'" elo "$dir/f.h5" "$dir/copy.h5"
one_line_error 2 "is the same record file as" report "$dir/f.h5" "$dir/copy.h5"
one_line_error 2 "--csv and --json cannot be used together" elo "$dir/f.h5" --csv --json
one_line_error 2 "--csv and --json cannot be used together" elo "$dir/f.h5" --json --csv

# 3. match at 100% and 0%
"$H" match gobang greedy random --games 10 --json >"$out" 2>/dev/null || miss "match 10/10"
python3 - "$out" <<'EOF' || miss "match at 100%: $(cat "$out")"
import json, sys
d = json.loads(open(sys.argv[1]).read())
assert d["score"] == 1 and d["elo"] is None and d["elo_high"] is None, d
assert 150 < d["elo_low"] < 180, d  # the Wilson lower bound 0.7225 as Elo: 166.2
EOF
"$H" match gobang random greedy --games 10 --json >"$out" 2>/dev/null || miss "match 0/10"
python3 - "$out" <<'EOF' || miss "match at 0%: $(cat "$out")"
import json, sys
d = json.loads(open(sys.argv[1]).read())
assert d["score"] == 0 and d["elo"] is None and d["elo_low"] is None, d
assert -180 < d["elo_high"] < -150, d
EOF
"$H" match gobang greedy random --games 10 2>/dev/null | grep -qF 'Elo(A - B): +inf  95% interval [+166, +inf]' ||
  miss "match table at 100%"

# 4. unreadable inputs, uncreatable outputs: one line, the system's reason
one_line_error 2 "file '$dir': Is a directory" elo "$dir"
one_line_error 2 "file '$dir/none.h5': No such file or directory" elo "$dir/none.h5"
printf 'not hdf5\n' >"$dir/text.h5"
one_line_error 2 "file '$dir/text.h5' is not a readable HDF5 file" report "$dir/text.h5"
# (missing folders of a tournament's output are made; a file in the way is refused)
one_line_error 2 "'$dir/text.h5': cannot make the folder: a file is in the way" \
  tournament "$dir/t.yaml" --quiet --set output="$dir/text.h5/such/x.h5"
one_line_error 2 "cannot write $dir/no/x.pdn: No such file or directory" \
  report "$dir/f.h5" --pdn "$dir/no/x.pdn"

# 5. --position needs a value (every command that has it)
for cmd in "show gobang" "perft checkers 3" "play gobang" "analyze gobang" "random gobang"; do
  # shellcheck disable=SC2086
  one_line_error 2 "hoyle ${cmd%% *}: --position needs a value" $cmd --position
done

# 6. show: the position string once
for spec in checkers backgammon gobang; do
  "$H" show "$spec" >"$out" || miss "show $spec"
  pos=$(sed -n 's/^position: //p' "$out")
  [ -n "$pos" ] || { miss "show $spec: no position line"; continue; }
  [ "$(grep -cF -- "$pos" "$out")" = 1 ] || miss "show $spec prints the position string twice"
done

# 7. user input with control characters stays on one line, escaped
one_line_error 2 "'W:W99\\nB1'" show checkers --position $'W:W99\nB1'
one_line_error 2 "unknown option '--p\\n2'" play gobang $'--p\n2'
one_line_error 2 "'3\\x01\\t'" perft gobang $'3\x01\t'
one_line_error 2 "spec 'gob\\nang'" match $'gob\nang' random random

[ "$fails" = 0 ] && echo "trust: ok"
[ "$fails" = 0 ]
