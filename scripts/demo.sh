#!/usr/bin/env bash
# Shows fixmatch working: two FIX 4.4 clients (CLIENT1, CLIENT2) trade AAPL through the server and every report is
# printed. Uses the server on 127.0.0.1:9878 if one runs (scripts/server.sh); otherwise starts one with the embedded
# defaults and a throw-away data folder, and stops it afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/java.sh

jar=loadgen/target/fixmatch-loadgen-0.1.0-SNAPSHOT.jar
server_jar=server/target/fixmatch-server-0.1.0-SNAPSHOT.jar
build_if_needed loadgen,server "$jar"
build_if_needed loadgen,server "$server_jar"

server_pid=
work=
cleanup() {
  if [ -n "$server_pid" ]; then
    kill -TERM "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  if [ -n "$work" ]; then rm -rf "$work"; fi
}
trap cleanup EXIT

if ! (exec 3<>/dev/tcp/127.0.0.1/9878) 2>/dev/null; then
  work=$(mktemp -d)
  cp config/fixmatch.properties "$work/fixmatch.properties"
  printf '\ndata.dir=%s\n' "$work/data" >> "$work/fixmatch.properties"
  echo "starting a server with the embedded defaults (log: $work/server.log) ..."
  "$JAVA_BIN" "${FIXMATCH_JVM_FLAGS[@]}" -Xms512m -Xmx512m \
    -cp "$server_jar:server/target/lib/*" \
    io.fixmatch.server.ServerMain --config "$work/fixmatch.properties" > "$work/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 60); do
    grep -q "fixmatch ready" "$work/server.log" 2>/dev/null && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
    sleep 0.5
  done
  grep "fixmatch ready" "$work/server.log" | sed 's/^.* - //'
fi

"$JAVA_BIN" "${FIXMATCH_JVM_FLAGS[@]}" -Xmx256m -cp "$jar:loadgen/target/lib/*" \
  io.fixmatch.loadgen.demo.DemoClient 127.0.0.1 9878
