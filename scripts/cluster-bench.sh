#!/usr/bin/env bash
# The replicated venue against the standalone server, each measured by the independent prober (OpenLoopProber: new
# order and cancel alternately, open loop, timed from each message's due time), each right after its own bare-echo
# floor: round trips p50/p99/p99.9 and the whole machine's CPU per message, in one run (docs/PERFORMANCE.md,
# "The replicated venue"). The servers run with config/fixmatch.properties on FIX port 9979 (admin 9980; the nodes'
# admin on 9881-9883): stop a server or cluster.sh of your own first.
#   scripts/cluster-bench.sh [--rate N] [--seconds S] [--warmup S] [--only standalone|cluster]
# Extra lines for both configurations: BENCH_PROPERTIES="cluster.maxParkMicros=100 ...".
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/java.sh

rate=5000
seconds=20
warmup=5
only=
while [ $# -gt 0 ]; do
  case "$1" in
    --rate) rate=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --help|-h) sed -n '2,8s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "cluster-bench: unknown option $1 (--rate N, --seconds S, --warmup S, --only MODE)" >&2; exit 2 ;;
  esac
done

build_server
prober_jar=benchmarks/target/benchmarks.jar
build_if_needed benchmarks "$prober_jar"
work=$(mktemp -d)
config=$work/bench.properties
{ cat config/fixmatch.properties; echo "fix.port=9979"; echo "admin.port=9980"
  for line in ${BENCH_PROPERTIES:-}; do echo "$line"; done; } > "$config"
echo "cluster-bench: $rate msg/s, ${warmup} s warm-up + ${seconds} s per phase; output in $work"

probe() { # NAME PID
  "$JAVA_BIN" "${FIXMATCH_JVM_FLAGS[@]}" -Xmx512m -cp "$prober_jar" io.fixmatch.benchmarks.prober.OpenLoopProber \
    --port 9979 --rate "$rate" --seconds "$seconds" --warmup "$warmup" --wait park --server-pid "$2" \
    | tee "$work/$1-prober.txt"
}

if [ "$only" != cluster ]; then
  "$JAVA_BIN" "${FIXMATCH_JVM_FLAGS[@]}" -Xms2g -Xmx2g -XX:+UseG1GC -cp "$jar:server/target/lib/*" \
    io.fixmatch.server.ServerMain --config "$config" --data "$work/standalone" > "$work/standalone.log" 2>&1 &
  server=$!
  for _ in $(seq 1 600); do grep -q 'fixmatch ready' "$work/standalone.log" && break; sleep 0.1; done
  echo "== standalone (pid $server)"
  probe standalone "$server"
  kill -TERM "$server"; wait "$server" || true
fi

if [ "$only" != standalone ]; then
  FIXMATCH_SKIP_BUILD=1 scripts/cluster.sh --config "$config" --data "$work/cluster" > "$work/cluster.log" 2>&1 &
  cluster=$!
  trap 'kill -TERM "$cluster" 2>/dev/null; wait "$cluster" 2>/dev/null || true' EXIT # a failed probe too
  for _ in $(seq 1 1200); do grep -q 'cluster: ready' "$work/cluster.log" && break; sleep 0.1; done
  gateway=$(sed -n 's/^cluster: gateway 0 .*starting (pid \([0-9]*\).*/\1/p' "$work/cluster.log")
  if [ -z "$gateway" ]; then
    echo "cluster-bench: no gateway pid in $work/cluster.log" >&2; kill -TERM "$cluster"; wait "$cluster" || true; exit 1
  fi
  echo "== cluster: $(grep 'cluster: ready' "$work/cluster.log") (gateway pid $gateway)"
  probe cluster "$gateway"
  kill -TERM "$cluster"; wait "$cluster" || true
fi
echo "cluster-bench: done; output in $work"
