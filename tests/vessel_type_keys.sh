#!/bin/sh
# SPDX-License-Identifier: MIT
# Every key the vessel-type parser accepts (the key lists and force names of
# core/vessel_type.c) is documented in include/naval/vessel_type.h's format
# comment, quoted as in a file: "residual", "steering", "pumps", ...
set -u
src=$1
header=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -r "$src" ] || fail "cannot read $src"
[ -r "$header" ] || fail "cannot read $header"
# The string literals of every `static const char* const NAME[] = {...};`
# list, however many lines it spans.
keys=$(awk '/static const char\* const [a-z_]*\[\] = \{/ { on = 1 }
            on { print }
            on && /\};/ { on = 0 }' "$src" | grep -o '"[a-z_0-9]*"' | sort -u)
[ -n "$keys" ] || fail "no key lists found in $src"
count=0
missing=""
for k in $keys; do
    count=$((count + 1))
    grep -qF -- "$k" "$header" || missing="$missing $k"
done
[ "$count" -ge 40 ] || fail "only $count keys found in $src: the lists' layout changed?"
[ -z "$missing" ] || fail "keys the parser accepts but $header does not document:$missing"
echo "vessel_type_keys: $count keys, all documented"
