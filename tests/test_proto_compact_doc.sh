#!/bin/sh
# SPDX-License-Identifier: MIT
# A second decoder of compact snapshots, written from docs/protocol.md
# alone (tests/compact_decode.py), reads a sequence the C encoder wrote that
# uses every record kind, bit for bit as the C decoder read it.
# Usage: test_proto_compact_doc.sh BENCH_PROTO PYTHON_BINDING_DIR
# Fails naming it (skips, 77, with NAVAL_SKIP=python) when no python3 can import the flatbuffers runtime.
set -eu
bench=$1
pydir=$2
here=$(cd "$(dirname "$0")" && pwd)
. "$(dirname "$0")/python_flatbuffers.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bench" --write-compact "$tmp/c"
PYTHONPATH="$pydir" "$py" "$here/compact_decode.py" "$tmp/c.json"
