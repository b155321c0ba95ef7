#!/usr/bin/env bash
# Starts the fixmatch server in the foreground: builds what is missing (only Java sources, resources and poms
# trigger a build), then runs with config/fixmatch.properties, read at start: FIX 4.4 on 127.0.0.1:9878, admin
# endpoint on 127.0.0.1:9880, journal, session state and logs under ./data. SIGTERM or Ctrl-C stops it cleanly.
#   scripts/server.sh [--config FILE] [--port P] [--data DIR] [--admin-port P] [--help]
# FIXMATCH_... environment variables override the file's keys (docs/CONFIG.md); FIXMATCH_JAVA_OPTS adds JVM flags.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/java.sh

jar=server/target/fixmatch-server-0.1.0-SNAPSHOT.jar
build_if_needed server "$jar"

# Paths given relative to where the user stood must still work after the cd above.
config=$PWD/config/fixmatch.properties
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --config|--data)
      if [ $# -gt 1 ]; then
        if [ "$1" = --config ]; then config=$(user_path "$2"); else args+=(--data "$(user_path "$2")"); fi
        shift 2
        continue
      fi ;;
    --config=*) config=$(user_path "${1#--config=}"); shift; continue ;;
    --data=*) args+=(--data "$(user_path "${1#--data=}")"); shift; continue ;;
  esac
  args+=("$1")
  shift
done

exec "$JAVA_BIN" "${FIXMATCH_JVM_FLAGS[@]}" -Xms2g -Xmx2g -XX:+UseG1GC ${FIXMATCH_JAVA_OPTS:-} \
  -cp "$jar:server/target/lib/*" io.fixmatch.server.ServerMain --config "$config" ${args[@]+"${args[@]}"}
