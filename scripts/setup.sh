#!/bin/sh
# Installs the Debian packages listed in scripts/packages.txt, once.
# Idempotent: does nothing (and needs no network) when every package is present.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
list="$here/packages.txt"
missing=""
for pkg in $(grep -v '^#' "$list" | tr -s ' \n' ' '); do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
        missing="$missing $pkg"
    fi
done
[ -z "$missing" ] && exit 0
echo "setup: installing:$missing" >&2
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
# shellcheck disable=SC2086
$sudo apt-get install -y -q --no-install-recommends $missing
