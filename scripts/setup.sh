#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs the Debian packages the project needs, once. Idempotent: does
# nothing (and needs no network) when every package is present.
#
#   scripts/setup.sh                 build, test and run: packages.txt and
#                                    packages-runtime.txt (developers, CI,
#                                    the Docker build stage)
#   scripts/setup.sh --runtime       only packages-runtime.txt (the Docker
#                                    runtime stage)
#   scripts/setup.sh --list [--runtime]   print the names, install nothing
#
# Lists: one package per line; '#' starts a comment.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
runtime_only=0
list_only=0
for arg in "$@"; do
    case "$arg" in
        --runtime) runtime_only=1 ;;
        --list) list_only=1 ;;
        *) echo "setup.sh: unknown option '$arg' (--runtime, --list)" >&2; exit 2 ;;
    esac
done
if [ "$runtime_only" -eq 1 ]; then
    lists="$here/packages-runtime.txt"
else
    lists="$here/packages.txt $here/packages-runtime.txt"
fi
packages=""
for list in $lists; do
    [ -r "$list" ] || { echo "setup.sh: cannot read $list" >&2; exit 2; }
    packages="$packages $(sed 's/#.*//' "$list" | tr -s ' \t\n' ' ')"
done
if [ "$list_only" -eq 1 ]; then
    for pkg in $packages; do echo "$pkg"; done
    exit 0
fi
missing=""
for pkg in $packages; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
        missing="$missing $pkg"
    fi
done
# npm: NodeSource's nodejs bundles it and conflicts with Debian's npm
# package; Debian's own nodejs comes without it. So it is not listed: it
# is installed when the nodejs here has no npm beside it.
if [ "$runtime_only" -eq 0 ] && ! command -v npm > /dev/null 2>&1; then
    if ! dpkg-query -W -f='${Status}' npm 2>/dev/null | grep -q 'install ok installed'; then
        missing="$missing npm"
    fi
fi
[ -z "$missing" ] && exit 0
echo "setup: installing:$missing" >&2
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
# shellcheck disable=SC2086
$sudo apt-get install -y -q --no-install-recommends $missing
