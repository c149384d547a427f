# SPDX-License-Identifier: MIT
# Sourced by the Python tests: sets $py to a python3 that imports the
# flatbuffers runtime (Debian: python3-flatbuffers), or fails naming it
# (skips, exit 77, when NAVAL_SKIP names python: missing.sh).
# A pyenv or venv python3 may lack the Debian module that /usr/bin/python3 has.
py=""
for cand in python3 /usr/bin/python3; do
    if command -v "$cand" >/dev/null 2>&1 && "$cand" -c 'import flatbuffers' 2>/dev/null; then
        py=$cand
        break
    fi
done
if [ -z "$py" ]; then
    . "$(dirname "$0")/missing.sh"
    naval_missing python "no python3 with the flatbuffers module (Debian: python3-flatbuffers)"
fi
