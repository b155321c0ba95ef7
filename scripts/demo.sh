#!/usr/bin/env bash
# Shows fixmatch working: two FIX 4.4 clients (CLIENT1, CLIENT2) trade AAPL through the server and every report is
# printed. Uses the server at --host/--port (default 127.0.0.1:9878) if one runs there (scripts/server.sh; one still
# starting answers the Logon once ready), after checking at Logon that it answers as FIXMATCH; when nothing listens
# on a local port, starts a throw-away server there (config/fixmatch.properties, a temporary data folder, no admin
# endpoint), waits for its ready line and stops it afterwards.
#   scripts/demo.sh [--host H] [--port P] [--help]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/java.sh

host=127.0.0.1
port=9878
while [ $# -gt 0 ]; do
  case "$1" in
    --host) host=${2:?--host needs a host}; shift 2 ;;
    --port) port=${2:?--port needs a port}; shift 2 ;;
    --help|-h) sed -n '2,8s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "demo: unknown option $1 (--host H, --port P, --help)" >&2; exit 2 ;;
  esac
done
case "$port" in ''|*[!0-9]*) echo "demo: --port must be a number, was $port" >&2; exit 2 ;; esac

client_jar=client/target/fixmatch-client-0.1.0-SNAPSHOT.jar
server_jar=server/target/fixmatch-server-0.1.0-SNAPSHOT.jar
build_if_needed client,server "$client_jar"
build_if_needed client,server "$server_jar"

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

if ! (exec 3<>"/dev/tcp/$host/$port") 2>/dev/null; then
  case "$host" in
    127.0.0.1|localhost|::1) ;;
    *) echo "demo: nothing listens at $host:$port (start a server there, or leave out --host)" >&2; exit 1 ;;
  esac
  work=$(mktemp -d)
  echo "starting a server on $host:$port with config/fixmatch.properties (log: $work/server.log) ..."
  "$JAVA_BIN" "${FIXMATCH_JVM_FLAGS[@]}" -Xms512m -Xmx512m -cp "$server_jar:server/target/lib/*" \
    io.fixmatch.server.ServerMain --config config/fixmatch.properties --port "$port" --data "$work/data" \
    --admin-port 0 > "$work/server.log" 2>&1 &
  server_pid=$!
  await_ready "$server_pid" "$work/server.log" demo
  grep "fixmatch ready" "$work/server.log" | sed 's/^.* - //'
fi

"$JAVA_BIN" -Xmx256m -cp "$client_jar:client/target/lib/*" io.fixmatch.client.DemoMain --host "$host" --port "$port"
