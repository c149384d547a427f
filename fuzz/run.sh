#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs every libFuzzer harness for a bounded time, JOBS at a time (each
# harness is one process on one core; default: the machine's cores):
#
#   fuzz/run.sh BUILD_DIR [SECONDS [JOBS]]      (SECONDS each, default 15)
#
# Each starts from its committed seeds (fuzz/corpus/NAME) and keeps what it
# finds in BUILD_DIR/corpus/NAME (not committed). A crash, leak, sanitizer
# report or timeout stops that harness: its input is saved as
# BUILD_DIR/artifacts/NAME-crash-* (or -leak-, -timeout-, -oom-), the log as
# BUILD_DIR/logs/NAME.log, and the script exits 1 after the others ran.
# Reproduce one: BUILD_DIR/fuzz/fuzz_NAME BUILD_DIR/artifacts/NAME-crash-...
set -eu
build=${1:?usage: fuzz/run.sh BUILD_DIR [SECONDS [JOBS]]}
seconds=${2:-15}
jobs=${3:-$(nproc 2>/dev/null || echo 2)}
here=$(cd "$(dirname "$0")" && pwd)
names="request snapshot compact mesh scenario vessel_type checkpoint config httphead wsframe view"
mkdir -p "$build/artifacts" "$build/logs"
for name in $names; do
    [ -x "$build/fuzz/fuzz_$name" ] || { echo "fuzz/run.sh: $build/fuzz/fuzz_$name is missing (build the naval_fuzzers target)" >&2; exit 2; }
done

# One harness: its log in logs/NAME.log, ok or failed in logs/NAME.result.
run_one() {
    name=$1
    corpus="$build/corpus/$name"
    mkdir -p "$corpus"
    log="$build/logs/$name.log"
    # -timeout: one input taking longer than 10 s is a finding (a hang);
    # -rss_limit_mb: so is a run that grows past 2 GiB.
    if "$build/fuzz/fuzz_$name" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -print_final_stats=1 -artifact_prefix="$build/artifacts/$name-" \
        "$corpus" "$here/corpus/$name" >"$log" 2>&1; then
        echo ok >"$build/logs/$name.result"
    else
        echo failed >"$build/logs/$name.result"
    fi
}

# JOBS at a time, in batches: the harnesses all run the same SECONDS.
running=0
for name in $names; do
    rm -f "$build/logs/$name.result"
    run_one "$name" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait
        running=0
    fi
done
wait

failed=""
printf '%-12s %10s %8s %6s  %s\n' harness execs exec/s cov result
for name in $names; do
    log="$build/logs/$name.log"
    if [ "$(cat "$build/logs/$name.result" 2>/dev/null)" = ok ]; then
        result=ok
    else
        result="FAILED (see $log)"
        failed="$failed $name"
    fi
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' "$log" | tail -1)
    printf '%-12s %10s %8s %6s  %s\n' "$name" "${execs:-?}" "${rate:-?}" "${cov:-?}" "$result"
done
if [ -n "$failed" ]; then
    echo "fuzz: findings in:$failed (inputs in $build/artifacts/)" >&2
    exit 1
fi
echo "fuzz: no findings"
