#!/bin/sh
# SPDX-License-Identifier: MIT
# The C# binding without a server: every struct NavalClient.cs mirrors has
# the C compiler's size, field offsets and array lengths (csharp_layout, from
# the headers, against BindingCheck.exe, from the .NET marshaller); the axes
# conversion to Unity; a refused connection's code and message through
# libnaval_client.so.
# Usage: csharp_binding.sh MONO BindingCheck.exe CSHARP_LAYOUT LIBDIR
set -u
mono=$1
check=$2
layout=$3
libdir=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

"$layout" | sort > "$tmp/c" || fail "csharp_layout"
"$mono" "$check" layout > "$tmp/cs.raw" 2> "$tmp/err" || fail "BindingCheck layout: $(cat "$tmp/err")"
sort "$tmp/cs.raw" > "$tmp/cs"
[ "$(wc -l < "$tmp/c")" -ge 100 ] || fail "csharp_layout printed too little: $(cat "$tmp/c")"
diff "$tmp/c" "$tmp/cs" > "$tmp/diff" || fail "C (<) and C# (>) layouts differ:
$(cat "$tmp/diff")"

"$mono" "$check" axes || fail "BindingCheck axes"

nothing=$(/usr/bin/env python3 -c '
import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$mono" "$check" errors "tcp://127.0.0.1:$nothing" || fail "BindingCheck errors"
echo "csharp_binding: ok ($(wc -l < "$tmp/c") layout lines agree)"
