#!/usr/bin/env bash
# The release load test: starts a fresh fixmatch server (unless --host/--port name a running acceptor), replays a
# volatile-market order flow at 45,000 orders/s (JLBH, coordinated omission corrected), prints the report and writes
# it to --out (summary.json, HdrHistogram logs, percentiles.html). The floor (loopback echo) is measured first,
# alone. Exit status: 0 PASS, 1 errors, 2 bad options, 3 FAIL (a threshold, the floor gate, the --baseline or the
# rate breached), 4 INVALID (the generator fell behind its schedule: its numbers measure itself).
#   scripts/loadgen.sh [--rate N] [--duration S] [--warmup S] [--host H] [--port P] [--out DIR] [--help] [...]
#   scripts/loadgen.sh --server-port P [...]   its own server on port P instead of 9878
# All loadgen options pass through (see --help). LOADGEN_JAVA_OPTS and SERVER_JAVA_OPTS add JVM flags;
# SERVER_PROPERTIES adds server config lines, e.g. SERVER_PROPERTIES="engine.idleStrategy=busy-spin engine.cpu=1".
# LOADGEN_SERVER_PROPERTIES: lines always added to the server it starts (see the default below).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/java.sh

jar=loadgen/target/fixmatch-loadgen-0.1.0-SNAPSHOT.jar
server_jar=server/target/fixmatch-server-0.1.0-SNAPSHOT.jar
build_if_needed loadgen,server "$jar"
build_if_needed loadgen,server "$server_jar"

# The latency trace (session.LOADGEN.latencyTrace=true, docs/FIX.md) splits each round trip into the server's stages
# (summary.json "stages"). LOADGEN_SERVER_PROPERTIES= (empty) runs the server without it.
LOADGEN_SERVER_PROPERTIES="${LOADGEN_SERVER_PROPERTIES-session.LOADGEN.latencyTrace=true}"

external=false
port=9878
out=out/loadgen
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --help|-h) exec "$JAVA_BIN" "${FIXMATCH_JVM_FLAGS[@]}" -cp "$jar:loadgen/target/lib/*" \
                 io.fixmatch.loadgen.LoadgenMain --help ;;
    --host) external=true; args+=("$1" "$2"); shift 2 ;;
    --port) external=true; port=$2; args+=("$1" "$2"); shift 2 ;;
    --server-port) port=$2; args+=(--port "$2"); shift 2 ;;
    --out) out=$2; args+=("$1" "$2"); shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
case "$out" in /*) ;; *) out="$OLDPWD/$out" ;; esac
for i in "${!args[@]}"; do
  if [ "${args[$i]}" = "--out" ]; then args[$((i + 1))]="$out"; fi
done
mkdir -p "$out"

server_pid=
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
}
trap cleanup EXIT

if [ "$external" = false ]; then
  # A fresh server with the embedded defaults, its data in the output folder so runs never share state, no admin
  # endpoint (a server already running keeps its admin port).
  work="$out/server"
  rm -rf "$work" && mkdir -p "$work"
  config="$work/fixmatch.properties"
  cp config/fixmatch.properties "$config"
  for property in ${LOADGEN_SERVER_PROPERTIES} ${SERVER_PROPERTIES:-}; do echo "$property" >> "$config"; done
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    echo "loadgen: port $port is already in use; stop what listens there or pass --host/--port" >&2
    exit 2
  fi
  "$JAVA_BIN" "${FIXMATCH_JVM_FLAGS[@]}" -Xms2g -Xmx2g -XX:+UseG1GC -Xlog:gc:file="$work/gc.log" \
    ${SERVER_JAVA_OPTS:-} -cp "$server_jar:server/target/lib/*" io.fixmatch.server.ServerMain \
    --config "$config" --port "$port" --data "$work/data" --admin-port 0 > "$work/server.log" 2>&1 &
  server_pid=$!
  await_ready "$server_pid" "$work/server.log" loadgen
  echo "server started (pid $server_pid, log $work/server.log)"
  # The report records the configuration the server ran with and its "fixmatch ready" line.
  args+=(--server-config "$config" --server-log "$work/server.log")
fi

set +e
"$JAVA_BIN" "${FIXMATCH_JVM_FLAGS[@]}" -Xms1g -Xmx1g -XX:+UseG1GC ${LOADGEN_JAVA_OPTS:-} \
  -cp "$jar:loadgen/target/lib/*" io.fixmatch.loadgen.LoadgenMain ${args[@]+"${args[@]}"}
status=$?
set -e
exit $status
