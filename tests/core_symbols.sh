#!/bin/sh
# SPDX-License-Identifier: MIT
# core's public face, checked on the built archive: every symbol it
# exports is declared in include/naval/ and carries the library prefix
# nv_, and every function declared there is exported (core is built with
# -fvisibility=hidden and the public headers push default visibility).
# Usage: core_symbols.sh LIB.a... include/naval (the archives that
# implement include/naval/)
set -eu
[ $# -ge 2 ] || { echo "usage: core_symbols.sh LIB.a... INCLUDE_DIR" >&2; exit 2; }
eval "inc=\${$#}"
libs=""
while [ $# -gt 1 ]; do libs="$libs $1"; shift; done
lib=$(echo $libs)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2086
readelf -sW $libs | awk '($5 == "GLOBAL" || $5 == "WEAK") && $7 != "UND" && $4 != "NOTYPE" { print $6, $8 }' |
    sort -u >"$tmp/syms"
awk '$1 == "DEFAULT" { print $2 }' "$tmp/syms" | sort -u >"$tmp/exported"
awk '$1 != "DEFAULT" { print $2 }' "$tmp/syms" | sort -u >"$tmp/hidden"
# Declarations: a name followed by "(" at the start of a declaration, or
# after a return type, outside comments (comment lines start with "/*" or " *").
grep -hv '^ *\(/\*\|\*\)' "$inc"/*.h | grep -oE '[a-z_][a-z0-9_]*\(' | tr -d '(' | sort -u >"$tmp/declared"
status=0
# complain TITLE LIST: prints the names under the title and fails the run.
complain() {
    [ -z "$2" ] && return 0
    echo "$1"
    echo "$2" | sed 's/^/  /'
    status=1
}
complain "exported by $lib but declared in no public header (make them static, or declare them in $inc):" \
    "$(comm -23 "$tmp/exported" "$tmp/declared")"
complain "exported by $lib without the library prefix nv_:" "$(grep -v '^nv_' "$tmp/exported" || true)"
complain "declared in $inc but hidden in $lib (a public header without the visibility pragma?):" \
    "$(comm -12 "$tmp/hidden" "$tmp/declared")"
[ "$status" -eq 0 ] && echo "core exports $(wc -l <"$tmp/exported") symbols, all nv_ and declared in $inc; $(wc -l <"$tmp/hidden") internal ones hidden"
exit $status
