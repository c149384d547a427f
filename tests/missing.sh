#!/bin/sh
# SPDX-License-Identifier: MIT
# A test whose tool is missing: fails, naming what is missing and how to get
# it, unless the user opted that part of the suite out by name in
# NAVAL_SKIP (comma-separated: web, browser, csharp, python), which then
# skips it (exit 77) and says so. `make test NAVAL_SKIP=web,csharp` sets it;
# the summary names what was skipped.
# Usage: missing.sh PART "what is missing (and how to install it)"
#   sourced: . missing.sh; naval_missing PART "..."   (exits either way)
naval_missing() {
    part=$1; what=$2
    case ",${NAVAL_SKIP:-}," in
        *",$part,"*)
            echo "SKIP (NAVAL_SKIP=$NAVAL_SKIP): $what"
            exit 77 ;;
    esac
    echo "FAIL: $what. Install it (scripts/setup.sh installs everything), or opt this part out: make test NAVAL_SKIP=$part"
    exit 1
}
if [ "$#" -ge 2 ] && [ "$(basename "$0")" = "missing.sh" ]; then naval_missing "$1" "$2"; fi
