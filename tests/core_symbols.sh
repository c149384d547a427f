#!/bin/sh
# SPDX-License-Identifier: MIT
# core's public face, checked on the built archive: every symbol it
# exports is declared in include/naval/ and carries the library prefix
# nv_, and every function declared there is exported (core is built with
# -fvisibility=hidden and the public headers push default visibility).
# Usage: core_symbols.sh libnaval_core.a include/naval
set -eu
lib=$1
inc=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
readelf -sW "$lib" | awk '($5 == "GLOBAL" || $5 == "WEAK") && $7 != "UND" && $4 != "NOTYPE" { print $6, $8 }' |
    sort -u >"$tmp/syms"
awk '$1 == "DEFAULT" { print $2 }' "$tmp/syms" | sort -u >"$tmp/exported"
awk '$1 != "DEFAULT" { print $2 }' "$tmp/syms" | sort -u >"$tmp/hidden"
# Declarations: a name followed by "(" at the start of a declaration, or
# after a return type, outside comments (comment lines start with "/*" or " *").
grep -hv '^ *\(/\*\|\*\)' "$inc"/*.h | grep -oE '[a-z_][a-z0-9_]*\(' | tr -d '(' | sort -u >"$tmp/declared"
status=0
leaked=$(comm -23 "$tmp/exported" "$tmp/declared")
if [ -n "$leaked" ]; then
    echo "exported by $lib but declared in no public header (make them static, or declare them in $inc):"
    echo "$leaked" | sed 's/^/  /'
    status=1
fi
unprefixed=$(grep -v '^nv_' "$tmp/exported" || true)
if [ -n "$unprefixed" ]; then
    echo "exported by $lib without the library prefix nv_:"
    echo "$unprefixed" | sed 's/^/  /'
    status=1
fi
missing=$(comm -12 "$tmp/hidden" "$tmp/declared")
if [ -n "$missing" ]; then
    echo "declared in $inc but hidden in $lib (a public header without the visibility pragma?):"
    echo "$missing" | sed 's/^/  /'
    status=1
fi
[ "$status" -eq 0 ] && echo "core exports $(wc -l <"$tmp/exported") symbols, all nv_ and declared in $inc; $(wc -l <"$tmp/hidden") internal ones hidden"
exit $status
