#!/usr/bin/env bash
# The soak test: the release load test (scripts/loadgen.sh, a fresh server of its own) run for 10 one-minute JLBH
# runs at 45,000 orders/s, the server recorded with Java Flight Recorder, then the soak report (SoakReport): errors,
# each probe's p50/p99/worst minute by minute, heap after GC minute by minute, GC pauses, and what the gateway and
# matching threads allocated; it checks no errors, a flat p99 (last minute within 1.5x of the first), no heap growth,
# no allocation on the server's own threads, no GC pause over 1 ms. Exit status: the report's (0 PASS, 3 FAIL), or
# the load test's when it failed to run (1 errors, 2 bad options).
#   scripts/soak.sh [--minutes N] [--rate N] [--out DIR] [any other loadgen option]
#   scripts/soak.sh --minutes 2          # the short version
# Default output: out/soak (summary.json, server.jfr, server/gc.log, soak-report.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/java.sh

build_if_needed loadgen,server loadgen/target/fixmatch-loadgen-0.1.0-SNAPSHOT.jar

minutes=10
out=out/soak
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --minutes) minutes=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --host|--port) echo "soak.sh records the server it starts itself: $1 is not supported" >&2; exit 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
case "$minutes" in ''|*[!0-9]*) echo "soak.sh: --minutes must be a whole number" >&2; exit 2 ;; esac
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
mkdir -p "$out"

# The recording: allocation samples, GC pauses and heap summaries, from the start to the exit.
jfr="-XX:StartFlightRecording=filename=$out/server.jfr,settings=profile,dumponexit=true"
set +e
# --duration is split over the runs: one run a minute. The floor (loopback echo, measured alone first) needs no soak.
SERVER_JAVA_OPTS="${SERVER_JAVA_OPTS:-} $jfr" scripts/loadgen.sh --runs "$minutes" --duration $((minutes * 60)) \
  --warmup 30 --floor-duration 20 --out "$out" ${args[@]+"${args[@]}"}
status=$?
set -e
if [ ! -f "$out/summary.json" ]; then
  echo "soak: the load test did not produce a report (exit $status)" >&2
  exit "$status"
fi
set +e
"$JAVA_BIN" -cp "loadgen/target/fixmatch-loadgen-0.1.0-SNAPSHOT.jar:loadgen/target/lib/*" \
  io.fixmatch.loadgen.report.SoakReport "$out" | tee "$out/soak-report.txt"
report=${PIPESTATUS[0]}
set -e
echo "load test exit status $status; soak report: $out/soak-report.txt; recording: $out/server.jfr; GC log: $out/server/gc.log"
exit "$report"
