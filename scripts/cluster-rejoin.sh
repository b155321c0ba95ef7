#!/usr/bin/env bash
# How long a cluster node started on an empty disk takes to rejoin (rebuild from the others and catch up), after at
# least --commands commands, without and then with a recent snapshot (docs/PERFORMANCE.md, "Recovery and rejoin"):
# starts the three nodes and a gateway (scripts/cluster.sh; FIX on 9979, admin 9980, the nodes' admin on 9881-9883),
# loads them with the load generator until the cluster has applied --commands commands, then empties node 2's disk
# and times its rejoin twice: replaying the whole log, then after a snapshot with --from-snapshot (copying the
# snapshot and the log after it).
#   scripts/cluster-rejoin.sh [--commands N] [--rate R]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/java.sh

commands=1000000
rate=40000
while [ $# -gt 0 ]; do
  case "$1" in
    --commands) commands=$2; shift 2 ;;
    --rate) rate=$2; shift 2 ;;
    --help|-h) sed -n '2,7s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "cluster-rejoin: unknown option $1 (--commands N, --rate R)" >&2; exit 2 ;;
  esac
done
build_server
loadgen_jar=loadgen/target/fixmatch-loadgen-0.1.0-SNAPSHOT.jar
build_if_needed loadgen "$loadgen_jar"
work=$(mktemp -d)
config=$work/rejoin.properties
{ cat config/fixmatch.properties; echo "fix.port=9979"; echo "admin.port=9980"; echo "cluster.snapshotEveryCommands=0"
  echo "engine.maxOrders=4000000"; } > "$config"

FIXMATCH_SKIP_BUILD=1 scripts/cluster.sh --config "$config" --data "$work/cluster" > "$work/cluster.log" 2>&1 &
cluster=$!
node2=
cleanup() {
  if [ -n "$node2" ]; then kill -TERM "$node2" 2>/dev/null || true; wait "$node2" 2>/dev/null || true; fi
  kill -TERM "$cluster" 2>/dev/null || true
  wait "$cluster" 2>/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 1 1200); do grep -q 'cluster: ready' "$work/cluster.log" && break; sleep 0.1; done
echo "cluster-rejoin: $(grep 'cluster: ready' "$work/cluster.log"); output in $work"

applied() { # the commands node ID's service has applied ("" if it does not answer)
  curl -s -m 2 "http://127.0.0.1:988$(($1 + 1))/cluster" | sed -n 's/^ *"commands" *: *\([0-9]*\).*/\1/p'
}
leader() {
  curl -s -m 2 127.0.0.1:9980/cluster | sed -n 's/^ *"leader" *: *\([0-9]*\).*/\1/p' | head -1
}

while [ "$(applied 0)" -lt "$commands" ]; do
  echo "cluster-rejoin: $(applied 0) commands applied; loading at $rate orders/s"
  "$JAVA_BIN" "${FIXMATCH_JVM_FLAGS[@]}" -Xmx1g -cp "$loadgen_jar:loadgen/target/lib/*" io.fixmatch.loadgen.LoadgenMain \
    --port 9979 --rate "$rate" --duration 20 --warmup 0 --runs 1 --out "$work/loadgen" > "$work/loadgen.log" 2>&1 || true
done
echo "cluster-rejoin: $(applied 0) commands applied"

rejoin() { # LABEL [--from-snapshot]
  local pid started target
  pid=$(curl -s -m 2 http://127.0.0.1:9883/cluster | sed -n 's/^ *"pid" *: *\([0-9]*\).*/\1/p')
  kill -9 "$pid"; sleep 1
  rm -rf "$work/cluster/node-2"; mkdir -p "$work/cluster/node-2"
  target=$(applied "$(leader)")
  started=$(date +%s.%N)
  "$JAVA_BIN" "${FIXMATCH_JVM_FLAGS[@]}" -Xms1g -Xmx1g -XX:+UseG1GC -cp "$jar:server/target/lib/*" \
    io.fixmatch.server.NodeMain --config "$config" --node 2 --data "$work/cluster/node-2" ${2:-} \
    > "$work/node-2-$1.log" 2>&1 &
  node2=$!
  until [ "$(applied 2)" = "$target" ]; do sleep 0.05; done
  echo "cluster-rejoin: node 2 on an empty disk, $1: caught up $target commands in" \
    "$(echo "$(date +%s.%N) - $started" | bc) s"
}
rejoin "no snapshot"
curl -s -m 5 -X POST "http://127.0.0.1:988$(($(leader) + 1))/snapshot" > /dev/null
sleep 5
rejoin "from a snapshot (--from-snapshot)" --from-snapshot
