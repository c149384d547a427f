#!/bin/sh
# SPDX-License-Identifier: MIT
# libnaval_client.so's face: it exports exactly the functions naval_client.h
# declares and the proto_ calls that header asks its callers to make (no
# codec, nng glue or C++ runtime symbol that could clash inside a game
# engine), and needs nothing beyond libc, libm and libnng at run time (the
# C++ runtime is linked in).
# Usage: client_shared_symbols.sh LIBNAVAL_CLIENT.so naval_client.h
set -u
lib=$1
header=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v nm > /dev/null || { echo "FAIL: no nm (Debian: binutils, with build-essential)"; exit 1; }

exported=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDRBVWiu]$/ { print $3 }' | sort -u)
[ -n "$exported" ] || fail "$lib exports nothing"
# The header's functions: every nvc_NAME( outside typedefs (callback types).
declared=$(grep -v typedef "$header" | grep -o '\bnvc_[a-z0-9_]*(' | tr -d '(' | sort -u)
proto="nv_code_name proto_free_hull proto_free_response proto_free_snapshot proto_free_world_info proto_status_name"
wanted=$( (echo "$declared"; for s in $proto; do echo "$s"; done) | sort -u)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "$wanted" > "$tmp/wanted"
echo "$exported" > "$tmp/exported"
missing=$(comm -23 "$tmp/wanted" "$tmp/exported" | tr '\n' ' ')
[ -z "$missing" ] || fail "declared but not exported by $lib: $missing"
extra=$(comm -13 "$tmp/wanted" "$tmp/exported" | tr '\n' ' ')
[ -z "$extra" ] || fail "exported by $lib but not the client API: $extra"
[ "$(echo "$declared" | wc -l)" -ge 20 ] || fail "too few nvc_ functions found in $header: $declared"

# Strong undefined symbols: libc's (versioned GLIBC) and nng's only.
undefined=$(nm -D --undefined-only "$lib" | awk '$1 == "U" { print $2 }' | grep -v '@GLIBC_' | grep -v '^nng_')
[ -z "$undefined" ] || fail "$lib needs symbols from elsewhere: $undefined"
needed=$(readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort | tr '\n' ' ')
for n in $needed; do
    case $n in
        libc.so.* | libm.so.* | libnng.so.* | ld-linux-*) ;;
        *) fail "$lib needs $n (the C++ runtime should be linked in): $needed" ;;
    esac
done
echo "naval_client_shared_symbols: ok ($(echo "$exported" | wc -l) symbols; needs $needed)"
