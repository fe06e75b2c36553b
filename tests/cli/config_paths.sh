#!/usr/bin/env bash
# How paths in a config resolve (docs/formats.md, "Paths in a config"): from
# the folder hoyle runs in, an opening book also beside the config; missing
# folders of an output are made; a missing file is named by its resolved,
# absolute path(s); a file where a folder should be is a usage error (exit 2).
set -u
H="$1"
. "$(dirname "$0")/lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/cfg" "$dir/work"
printf '11-15 | 11-15\n9-13 | 9-13\n' >"$dir/cfg/book.txt"
printf '%s\n' 'name: paths' 'games: [checkers]' 'agents: [random, greedy]' \
  'openings: {checkers: "book:book.txt"}' 'output: runs/deep/t.h5' >"$dir/cfg/t.yaml"
cd "$dir/work" || fail "cd"
# the book is found beside the config; the output is relative to the working folder
"$H" tournament ../cfg/t.yaml --quiet >/dev/null 2>"$dir/err" || fail "tournament: $(cat "$dir/err")"
[ -f "$dir/work/runs/deep/t.h5" ] || fail "output not made under the working folder's runs/deep/"
[ -e "$dir/cfg/runs" ] && fail "output made beside the config"
# a missing book: both places it was looked for, as absolute paths, on one line
"$H" tournament ../cfg/t.yaml --set 'openings={checkers: "book:nobook.txt"}' >/dev/null 2>"$dir/err"
[ $? -eq 2 ] || fail "missing book should exit 2"
grep -qF "neither $dir/work/nobook.txt nor $dir/work/../cfg/nobook.txt" "$dir/err" ||
  fail "missing book message: $(cat "$dir/err")"
[ "$(wc -l <"$dir/err")" -eq 1 ] || fail "one-line error"
# a missing file in an agent spec: named as resolved
"$H" tournament ../cfg/t.yaml --set 'agents=["alphabeta(eval=nofile.eval)", random]' \
  >/dev/null 2>"$dir/err"
[ $? -eq 2 ] || fail "missing eval file should exit 2"
grep -qF "no file 'nofile.eval' ($dir/work/nofile.eval)" "$dir/err" ||
  fail "eval message: $(cat "$dir/err")"
# a file where the output's folder should be
touch "$dir/work/afile"
"$H" tournament ../cfg/t.yaml --set output=afile/x/t.h5 --quiet >/dev/null 2>"$dir/err"
[ $? -eq 2 ] || fail "a file in the way should exit 2"
grep -q "'afile': cannot make the folder" "$dir/err" || fail "in the way: $(cat "$dir/err")"
echo "config_paths: ok"
